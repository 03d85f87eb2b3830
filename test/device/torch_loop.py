# SPDX-License-Identifier: BSD-3-Clause
# torch_loop.py: a PyTorch matrix loop for gpu_check.sh: 20 GEMMs of 1024 x 1024 and 20
# elementwise additions on the GPU inside the NVTX range "torch loop"; prints "torch ok".
import torch

a = torch.randn(1024, 1024, device="cuda")
b = torch.randn(1024, 1024, device="cuda")
torch.cuda.nvtx.range_push("torch loop")
for _ in range(20):
    c = a @ b
    a = a + 0.001 * c
torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
print("torch ok")
