/* SPDX-License-Identifier: BSD-3-Clause */
// report.js: renders the scorep-report page from its JSON data block (flame graph, heat map,
// communication matrices, I/O per file, timeline, top regions, configuration); plain DOM, SVG-free, no
// libraries, so the page opens offline. Errors are shown on the page and set
// <body data-status="error">; a full render sets data-status="ok" (the tests read it).
'use strict';

var errorsShown = 0;

function reportError(what, err) {
  errorsShown++;
  var box = document.getElementById('errors');
  var msg = what + ': ' + (err && err.stack ? err.stack : String(err));
  if (box) box.textContent += msg + '\n';
  document.body.setAttribute('data-status', 'error');
}

window.onerror = function (message, source, line, column, error) {
  reportError('script error at ' + line + ':' + column, error || message);
  return false;
};

// ------------------------------------------------------------------ helpers
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function fmtTime(s) {
  var a = Math.abs(s);
  if (a === 0) return '0 s';
  if (a >= 1) return s.toFixed(3) + ' s';
  if (a >= 1e-3) return (s * 1e3).toFixed(3) + ' ms';
  if (a >= 1e-6) return (s * 1e6).toFixed(3) + ' \u00b5s';
  return (s * 1e9).toFixed(1) + ' ns';
}

function fmtBytes(b) {
  if (b < 1024) return b + ' B';
  if (b < 1048576) return (b / 1024).toFixed(1) + ' KiB';
  if (b < 1073741824) return (b / 1048576).toFixed(1) + ' MiB';
  return (b / 1073741824).toFixed(2) + ' GiB';
}

function hash(s) {
  var h = 2166136261;
  for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// Region colours by paradigm group (as in scorep-score), varied per name within a group.
var GROUP_HUES = { MPI: [0, 25], OMP: [95, 140], SHMEM: [170, 190], CUDA: [270, 300],
  PTHREAD: [310, 330], SCOREP: [0, 0], COM: [40, 55], USR: [200, 235] };
var GROUP_LABELS = { USR: 'user', COM: 'user, calls communication', MPI: 'MPI', OMP: 'OpenMP',
  SHMEM: 'SHMEM', PTHREAD: 'POSIX threads', CUDA: 'CUDA', SCOREP: 'measurement' };

function groupOfParadigm(p) {
  p = (p || '').toLowerCase().split(':')[0];
  return { mpi: 'MPI', openmp: 'OMP', shmem: 'SHMEM', pthread: 'PTHREAD', cuda: 'CUDA',
    measurement: 'SCOREP' }[p] || 'USR';
}

function regionColor(name, group) {
  var range = GROUP_HUES[group] || GROUP_HUES.USR, h = hash(name || '');
  var hue = range[0] + (h % 1000) / 1000 * (range[1] - range[0]);
  var sat = group === 'SCOREP' ? 0 : 55 + (h >> 10) % 25;
  var light = 55 + (h >> 16) % 20;
  return 'hsl(' + hue.toFixed(0) + ',' + sat + '%,' + light + '%)';
}

function legend(groups) {
  var d = el('div', { class: 'legend' });
  groups.forEach(function (g) {
    var s = el('span');
    var i = el('i');
    i.style.background = regionColor('', g);
    s.appendChild(i);
    s.appendChild(document.createTextNode(GROUP_LABELS[g] || g));
    d.appendChild(s);
  });
  return d;
}

var tooltip;
function showTip(ev, text) {
  tooltip.textContent = text;
  tooltip.hidden = false;
  var x = ev.clientX + 14, y = ev.clientY + 14;
  var w = tooltip.offsetWidth, h = tooltip.offsetHeight;
  if (x + w > window.innerWidth) x = Math.max(0, ev.clientX - w - 14);
  if (y + h > window.innerHeight) y = Math.max(0, ev.clientY - h - 14);
  tooltip.style.left = x + 'px';
  tooltip.style.top = y + 'px';
}
function hideTip() { tooltip.hidden = true; }

function locationLabel(loc) {
  return 'rank ' + loc.rank + ' / ' + loc.name;
}

function viewWidth(id) {
  var w = document.getElementById(id).clientWidth;
  return w > 100 ? w : 1200;
}

// ------------------------------------------------------------------ meta
function renderMeta(data) {
  var m = data.meta || {};
  var parts = ['experiment ' + m.directory];
  parts.push(m.profile ? 'profile: ' + m.profile : 'no profile');
  parts.push(m.trace ? 'trace: ' + m.trace : 'no trace');
  document.getElementById('meta').textContent = parts.join(' \u2022 ');
}

// ------------------------------------------------------------------ flame graph
function buildTree(data) {
  var t = data.tree;
  var nodes = t.nodes.map(function (a, i) {
    var reg = t.regions[a[1]] || { name: '?', type: 'USR' };
    return { id: i, parent: a[0], name: a[7] !== null ? a[7] : reg.name, type: reg.type,
      visits: a[2], incl: a[3], excl: a[4], min: a[5], max: a[6], children: [] };
  });
  var root = { id: -1, name: 'all locations', type: 'SCOREP', visits: 0, incl: 0, excl: 0,
    min: 0, max: 0, children: [], parent: null };
  nodes.forEach(function (n) {
    var p = n.parent >= 0 ? nodes[n.parent] : root;
    n.up = p;
    p.children.push(n);
    if (p === root) root.incl += n.incl;
  });
  nodes.concat([root]).forEach(function (n) {
    n.children.sort(function (a, b) { return b.incl - a.incl; });
  });
  return root;
}

function nodeTip(n, total) {
  var lines = [n.name, 'inclusive ' + fmtTime(n.incl) +
    (total > 0 ? ' (' + (100 * n.incl / total).toFixed(1) + '% of all)' : '')];
  if (n.id >= 0) {
    lines.push('exclusive ' + fmtTime(n.excl));
    lines.push('visits ' + n.visits);
    lines.push('per visit: min ' + fmtTime(n.min) + ', max ' + fmtTime(n.max));
    lines.push('group ' + (GROUP_LABELS[n.type] || n.type));
  }
  return lines.join('\n');
}

// The frame named by the page address's "#zoom=NAME" (first found breadth first): lets a
// link, or a test, open the flame graph zoomed.
function zoomTarget(root) {
  var m = /[#&]zoom=([^&]*)/.exec(window.location.hash);
  if (!m) return null;
  var name = decodeURIComponent(m[1]), queue = [root];
  while (queue.length) {
    var n = queue.shift();
    if (n.name === name) return n;
    queue.push.apply(queue, n.children);
  }
  return null;
}

function renderFlame(data) {
  var view = document.getElementById('flame-view');
  if (!data.tree) {
    view.appendChild(el('p', { class: 'note' }, 'No profile in this experiment (SCOREP_ENABLE_PROFILING=false).'));
    return;
  }
  var root = buildTree(data), ROW = 20;
  var width = viewWidth('flame-view');
  function draw(focus) {
    view.textContent = '';
    var ancestors = [];
    for (var a = focus.up; a; a = a.up) ancestors.unshift(a);
    var maxDepth = 0, frames = 0;
    function frame(n, x, w, depth, cls) {
      var d = el('div', { class: 'fg' + cls, 'data-name': n.name, 'data-id': n.id });
      d.style.left = x + 'px';
      d.style.top = depth * ROW + 'px';
      d.style.width = Math.max(w, 1) + 'px';
      d.style.background = regionColor(n.name, n.type);
      if (w > 24) d.textContent = n.name;
      d.onmousemove = function (ev) { showTip(ev, nodeTip(n, root.incl)); };
      d.onmouseleave = hideTip;
      d.onclick = function () { hideTip(); draw(n === focus && n.up ? n.up : n); };
      view.appendChild(d);
      frames++;
      if (depth > maxDepth) maxDepth = depth;
    }
    ancestors.forEach(function (n, i) { frame(n, 0, width, i, ' anc'); });
    // frames narrower than half a pixel are left out: the page stays small for deep trees
    (function layout(n, x, w, depth) {
      frame(n, x, w, depth, '');
      var scale = n.incl > 0 ? w / n.incl : 0, cx = x;
      n.children.forEach(function (c) {
        var cw = c.incl * scale;
        if (cw >= 0.5) layout(c, cx, cw, depth + 1);
        cx += cw;
      });
    })(focus, 0, width, ancestors.length);
    view.style.height = (maxDepth + 1) * ROW + 'px';
    view.setAttribute('data-frames', frames);
    var crumbs = document.getElementById('flame-crumbs');
    crumbs.textContent = ancestors.concat([focus]).map(function (n) { return n.name; }).join(' \u203a ');
    crumbs.setAttribute('data-focus', focus.name);
  }
  draw(zoomTarget(root) || root);
  view.parentNode.insertBefore(legend(['USR', 'COM', 'MPI', 'OMP', 'SHMEM', 'CUDA']), view);
}

// ------------------------------------------------------------------ heat map
function renderHeat(data) {
  var view = document.getElementById('heat-view');
  if (!data.heat || !data.heat.regions.length) {
    view.appendChild(el('p', { class: 'note' }, 'No profile with time in this experiment.'));
    return;
  }
  var regs = data.heat.regions.map(function (r) { return data.tree.regions[r]; });
  var vals = data.heat.values, colMax = regs.map(function () { return 0; });
  vals.forEach(function (row) {
    row.forEach(function (v, k) { if (v > colMax[k]) colMax[k] = v; });
  });
  var table = el('table', { class: 'heat' }), head = el('tr');
  head.appendChild(el('th', null, 'location'));
  regs.forEach(function (r) { head.appendChild(el('th', { class: 'region', title: r.name }, r.name)); });
  table.appendChild(head);
  data.locations.forEach(function (loc, l) {
    var tr = el('tr');
    tr.appendChild(el('th', { class: 'loc' }, locationLabel(loc)));
    vals[l].forEach(function (v, k) {
      var td = el('td', { class: 'cell', 'data-value': v }, v > 0 ? fmtTime(v) : '');
      var f = colMax[k] > 0 ? v / colMax[k] : 0;
      td.style.background = 'hsl(' + (60 - 60 * f).toFixed(0) + ',90%,' + (96 - 46 * f).toFixed(0) + '%)';
      td.onmousemove = function (ev) {
        showTip(ev, regs[k].name + '\n' + locationLabel(loc) + '\nexclusive ' + fmtTime(v) +
          '\n' + (100 * f).toFixed(1) + '% of the largest location');
      };
      td.onmouseleave = hideTip;
      tr.appendChild(td);
    });
    table.appendChild(tr);
  });
  view.appendChild(table);
}

// ------------------------------------------------------------------ communication matrices
// Matrices of more than MATRIX_TABLE_MAX ranks are drawn on a canvas, one cell per rank pair.
var MATRIX_TABLE_MAX = 32;

function matrixCanvas(block, m) {
  var n = m.messages.length, cell = Math.max(1, Math.min(12, Math.floor(800 / n))), max = 0;
  m.bytes.forEach(function (row) { row.forEach(function (b) { if (b > max) max = b; }); });
  var c = el('canvas', { width: n * cell, height: n * cell, class: 'mx-canvas' }), ctx = c.getContext('2d');
  for (var i = 0; i < n; i++)
    for (var j = 0; j < n; j++) {
      if (!m.bytes[i][j] && !m.messages[i][j]) continue;
      var f = max > 0 ? Math.sqrt(m.bytes[i][j] / max) : 1;
      ctx.fillStyle = 'hsl(210,80%,' + (90 - 50 * f).toFixed(0) + '%)';
      ctx.fillRect(j * cell, i * cell, cell, cell);
    }
  c.onmousemove = function (ev) {
    var r = c.getBoundingClientRect(), i = Math.floor((ev.clientY - r.top) / cell),
      j = Math.floor((ev.clientX - r.left) / cell);
    if (i < 0 || j < 0 || i >= n || j >= n) return hideTip();
    showTip(ev, 'rank ' + i + ' \u2192 rank ' + j + ': ' + m.messages[i][j] + ' ' + m.unit + ', ' +
      m.bytes[i][j] + ' bytes');
  };
  c.onmouseleave = hideTip;
  block.appendChild(el('p', { class: 'hint' }, n + ' ranks: rows send, columns receive; hover for the numbers.'));
  block.appendChild(c);
  return block;
}

function matrixTable(title, m, kind) {
  var block = el('div', { class: 'matrix-block', 'data-kind': kind });
  block.appendChild(el('h3', null, title));
  if (!m.messages) {
    block.appendChild(el('p', { class: 'note' }, 'Not shown: ' + m.ranks + ' ranks are too many to embed the matrix.'));
    return block;
  }
  if (m.messages.length > MATRIX_TABLE_MAX) return matrixCanvas(block, m);
  var n = m.messages.length, max = 0, table = el('table', { class: 'mx' }), head = el('tr');
  m.bytes.forEach(function (row) { row.forEach(function (b) { if (b > max) max = b; }); });
  head.appendChild(el('th', null, 'from \\ to'));
  for (var j = 0; j < n; j++) head.appendChild(el('th', null, 'rank ' + j));
  table.appendChild(head);
  for (var i = 0; i < n; i++) {
    var tr = el('tr');
    tr.appendChild(el('th', null, 'rank ' + i));
    for (j = 0; j < n; j++) {
      var msgs = m.messages[i][j], bytes = m.bytes[i][j];
      var td = el('td', { class: 'mx', 'data-kind': kind, 'data-from': i, 'data-to': j,
        'data-messages': msgs, 'data-bytes': bytes });
      if (msgs > 0 || bytes > 0) {
        td.appendChild(el('div', null, String(msgs)));
        td.appendChild(el('div', { class: 'b' }, fmtBytes(bytes)));
        var f = max > 0 ? Math.sqrt(bytes / max) : 0;
        td.style.background = 'hsl(210,80%,' + (96 - 40 * f).toFixed(0) + '%)';
        td.title = 'rank ' + i + ' \u2192 rank ' + j + ': ' + msgs + ' ' + m.unit + ', ' + bytes + ' bytes';
      }
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  block.appendChild(table);
  return block;
}

function profileBytesTable(pb) {
  var cols = ['sent', 'received', 'put', 'get'].filter(function (c) {
    return pb.metrics.indexOf('bytes_' + c) >= 0;
  });
  var table = el('table', { class: 'bytes' }), head = el('tr');
  head.appendChild(el('th', null, 'rank'));
  cols.forEach(function (c) { head.appendChild(el('th', null, 'bytes ' + c)); });
  table.appendChild(head);
  pb.ranks.forEach(function (r) {
    var tr = el('tr');
    tr.appendChild(el('th', null, 'rank ' + r.rank));
    cols.forEach(function (c) {
      tr.appendChild(el('td', { class: 'num', 'data-rank': r.rank, 'data-metric': 'bytes_' + c }, String(r[c])));
    });
    table.appendChild(tr);
  });
  return table;
}

function renderMatrix(data) {
  var view = document.getElementById('matrix-view');
  if (data.matrix) {
    view.appendChild(el('p', { class: 'hint' }, 'Point-to-point messages between ranks, ' +
      'from the trace (number of messages, bytes); rows send, columns receive.'));
    data.matrix.unit = 'messages';
    view.appendChild(matrixTable('MPI point-to-point messages', data.matrix, 'mpi'));
    if (data.matrix.unmatched_sends || data.matrix.unmatched_receives)
      view.appendChild(el('p', { class: 'note', id: 'unmatched' }, data.matrix.unmatched_sends +
        ' sends and ' + data.matrix.unmatched_receives + ' receives have no partner in the trace ' +
        '(a reduced or cut trace) and are not in the matrix.'));
  }
  if (data.rma) {
    [['puts', 'SHMEM/RMA puts'], ['gets', 'SHMEM/RMA gets'],
     ['atomics', 'SHMEM/RMA atomics (bytes: operands sent)']].forEach(function (p) {
      var m = data.rma[p[0]];
      if (!m) return;
      m.unit = p[0];
      view.appendChild(matrixTable(p[1] + ' (from the trace; rows: origin, columns: target)', m, p[0]));
    });
  }
  var pb = data.profile_bytes;
  if (pb && pb.metrics.length) {
    var block = el('div', { class: 'matrix-block' });
    block.appendChild(el('h3', null, 'Bytes per rank (profile)'));
    if (!data.meta.trace)
      block.appendChild(el('p', { class: 'note' }, 'The profile counts bytes per rank only; ' +
        'the matrix of messages between pairs of ranks needs a trace (SCOREP_ENABLE_TRACING=true).'));
    block.appendChild(profileBytesTable(pb));
    view.appendChild(block);
  }
  if (!view.childNodes.length)
    view.appendChild(el('p', { class: 'note' }, 'No MPI or SHMEM communication was recorded.'));
}

// ------------------------------------------------------------------ I/O
function ioChart(io) {
  var width = viewWidth('io-view'), height = 160, LEFT = 70, BOTTOM = 18;
  var canvas = el('canvas', { width: width, height: height, id: 'io-chart' });
  var ctx = canvas.getContext('2d'), n = io.read_bins.length, max = 0;
  for (var k = 0; k < n; k++) max = Math.max(max, io.read_bins[k], io.write_bins[k]);
  var secs = io.bin_seconds || 1, bw = (width - LEFT - 4) / n;
  ctx.font = '11px sans-serif';
  ctx.fillStyle = '#222';
  ctx.fillText(fmtBytes(Math.round(max / secs)) + '/s', 2, 10);
  ctx.fillText('0', LEFT - 12, height - BOTTOM);
  ctx.fillText('0 s', LEFT, height - 4);
  ctx.fillText(fmtTime(secs * n), width - 60, height - 4);
  [['read_bins', '#3a78c2'], ['write_bins', '#d2662a']].forEach(function (p, j) {
    ctx.fillStyle = p[1];
    for (var k = 0; k < n; k++) {
      var h = max ? io[p[0]][k] / max * (height - BOTTOM - 14) : 0;
      ctx.fillRect(LEFT + k * bw + j * bw / 2, height - BOTTOM - h, Math.max(1, bw / 2 - 0.5), h);
    }
    ctx.fillText(j ? 'write' : 'read', LEFT + 60 + j * 50, 10);
  });
  return canvas;
}

function renderIo(data) {
  var view = document.getElementById('io-view'), io = data.io;
  if (!io) {
    view.appendChild(el('p', { class: 'note' },
      'No I/O was recorded (scorep-cc --io=posix or scorep-run --io=posix records it).'));
    return;
  }
  var table = el('table', { class: 'io' }), head = el('tr');
  ['file', 'paradigm', 'bytes read', 'bytes written', 'reads', 'writes', 'flushes', 'failed',
   'time', 'ranks', 'read sizes', 'write sizes'].forEach(function (h) { head.appendChild(el('th', null, h)); });
  table.appendChild(head);
  io.rows.slice().sort(function (a, b) {
    return (b.read_bytes + b.write_bytes) - (a.read_bytes + a.write_bytes) || (a.file < b.file ? -1 : 1);
  }).forEach(function (r) {
    var tr = el('tr', { class: 'io-row', 'data-file': r.file, 'data-paradigm': r.paradigm,
      'data-read-bytes': r.read_bytes, 'data-write-bytes': r.write_bytes, 'data-reads': r.read_ops,
      'data-writes': r.write_ops, 'data-flushes': r.flushes, 'data-failed': r.failed,
      'data-ranks': r.ranks.join(' ') });
    tr.appendChild(el('td', null, r.file));
    tr.appendChild(el('td', null, r.paradigm));
    [r.read_bytes, r.write_bytes].forEach(function (b) { tr.appendChild(el('td', { class: 'num', title: b + ' bytes' }, fmtBytes(b))); });
    [r.read_ops, r.write_ops, r.flushes, r.failed].forEach(function (v) { tr.appendChild(el('td', { class: 'num' }, String(v))); });
    tr.appendChild(el('td', { class: 'num' }, r.time === null ? '-' : fmtTime(r.time)));
    tr.appendChild(el('td', null, r.ranks.length > 8 ? r.ranks.length + ' ranks' : r.ranks.join(', ')));
    [r.read_sizes, r.write_sizes].forEach(function (h) {
      var parts = [];
      h.forEach(function (v, k) { if (v) parts.push(io.size_buckets[k] + ': ' + v); });
      tr.appendChild(el('td', null, parts.join(', ')));
    });
    table.appendChild(tr);
  });
  var block = el('div', { class: 'scroll' });
  block.appendChild(table);
  view.appendChild(block);
  if (io.source === 'summary') {
    view.appendChild(el('p', { class: 'note', id: 'io-summary-note' }, 'From the runtime\'s ' +
      'per-process summaries (io_summary.<rank>.tsv): no trace, so no time per file and no ' +
      'bandwidth over time (SCOREP_ENABLE_TRACING=true records them).'));
    return;
  }
  view.appendChild(el('h3', null, 'I/O bandwidth over time'));
  view.appendChild(ioChart(io));
}

// ------------------------------------------------------------------ timeline
function renderTimeline(data) {
  var info = document.getElementById('timeline-info'), view = document.getElementById('timeline-view');
  var t = data.timeline;
  if (!t) {
    info.appendChild(el('p', { class: 'note' }, data.trace_note ||
      'No trace in this experiment (SCOREP_ENABLE_TRACING=true records one).'));
    return;
  }
  var nLoc = t.locations.length, iv = t.intervals, msg = t.messages, lau = t.launches || [];
  var nIv = iv.length / 5, nMsg = msg.length / 5, nLau = lau.length / 4, maxDepth = 0;
  for (var i = 0; i < nIv; i++) if (iv[5 * i + 2] > maxDepth) maxDepth = iv[5 * i + 2];
  var levels = maxDepth + 1, ROW = Math.max(24, Math.min(60, levels * 8)), LABEL = 170, AXIS = 20;
  // browsers refuse canvases much taller than 16000 pixels: many locations get thin rows
  if (nLoc * ROW > 16000) ROW = Math.max(2, Math.floor(16000 / nLoc));
  var band = ROW / levels;
  info.setAttribute('data-locations', nLoc);
  info.setAttribute('data-intervals', nIv);
  info.setAttribute('data-messages', nMsg);
  info.setAttribute('data-total-intervals', t.total_intervals);
  info.setAttribute('data-total-messages', t.total_messages);
  info.setAttribute('data-launches', nLau);
  info.appendChild(el('p', null, nLoc + ' locations, ' + fmtTime(t.duration / t.resolution) +
    '; drawn: ' + nIv + ' of ' + t.total_intervals + ' region instances, ' + nMsg + ' of ' +
    t.total_messages + ' messages' + (t.total_launches ? ', ' + nLau + ' of ' + t.total_launches +
    ' CUDA launches (green: the launch on the host to its kernel on the GPU stream)' : '') + '.'));
  if (t.downsampled) info.appendChild(el('p', { class: 'note' }, t.method));
  // the critical path of the wait-state analysis (scout.cubex): [row, begin, end] per piece
  var cp = t.critical_path || [], nCp = cp.length / 3;
  info.setAttribute('data-critical-path', nCp);
  if (nCp) info.appendChild(el('p', { id: 'timeline-critical-path' }, 'The red line under the ' +
    'regions marks the critical path of the wait-state analysis (' + nCp + ' pieces): the ' +
    'chain of work that determined the run time; shortening anything else does not shorten the run.'));
  if (data.config && data.config.reduction)
    info.appendChild(el('p', { class: 'note', id: 'timeline-reduced' }, 'This trace is incomplete: ' +
      'events were removed when SCOREP_TOTAL_MEMORY ran short (see "Configuration and reduction").'));
  var regionGroup = t.regions.map(function (r) { return groupOfParadigm(r.paradigm); });
  var colors = t.regions.map(function (r, k) { return regionColor(r.name, regionGroup[k]); });
  var width = viewWidth('timeline-view'), height = AXIS + nLoc * ROW + 4;
  var canvas = el('canvas', { width: width, height: height });
  view.appendChild(canvas);
  var ctx = canvas.getContext('2d'), range = [0, t.duration], drag = null;
  function xOf(ts) { return LABEL + (ts - range[0]) / (range[1] - range[0]) * (width - LABEL - 4); }
  function draw() {
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px sans-serif';
    ctx.fillStyle = '#222';
    ctx.textBaseline = 'middle';
    t.locations.forEach(function (loc, l) {
      if (ROW >= 10) ctx.fillText(locationLabel(loc).slice(0, 28), 4, AXIS + l * ROW + ROW / 2);
      ctx.fillStyle = l % 2 ? '#fafafa' : '#f0f0f0';
      ctx.fillRect(LABEL, AXIS + l * ROW, width - LABEL, ROW);
      ctx.fillStyle = '#222';
    });
    for (var k = 0; k <= 5; k++) {
      var ts = range[0] + k / 5 * (range[1] - range[0]), x = xOf(ts);
      ctx.fillRect(x, AXIS - 4, 1, 4);
      ctx.fillText(fmtTime(ts / t.resolution), Math.min(x, width - 60), 8);
    }
    for (var i = 0; i < nIv; i++) {
      var s = iv[5 * i + 3], e = iv[5 * i + 4];
      if (e < range[0] || s > range[1]) continue;
      var x0 = Math.max(xOf(s), LABEL), x1 = Math.min(xOf(e), width);
      ctx.fillStyle = colors[iv[5 * i + 1]];
      ctx.fillRect(x0, AXIS + iv[5 * i] * ROW + iv[5 * i + 2] * band, Math.max(1, x1 - x0), band - 0.5);
    }
    // lines from row to row: [from row, to row, from time, to time, ...] every `stride`
    function lines(a, stride, color) {
      ctx.strokeStyle = color;
      ctx.beginPath();
      for (var j = 0; j + 3 < a.length; j += stride) {
        if (a[j + 3] < range[0] || a[j + 2] > range[1]) continue;
        ctx.moveTo(xOf(a[j + 2]), AXIS + a[j] * ROW + ROW / 2);
        ctx.lineTo(xOf(a[j + 3]), AXIS + a[j + 1] * ROW + ROW / 2);
      }
      ctx.stroke();
    }
    lines(msg, 5, 'rgba(0,0,0,0.6)');
    lines(lau, 4, 'rgba(0,140,0,0.7)');
    ctx.fillStyle = '#d00';
    for (i = 0; i < nCp; i++) {
      var c0 = cp[3 * i + 1], c1 = cp[3 * i + 2];
      if (c1 < range[0] || c0 > range[1]) continue;
      var cx0 = Math.max(xOf(c0), LABEL), cx1 = Math.min(xOf(c1), width);
      ctx.fillRect(cx0, AXIS + (cp[3 * i] + 1) * ROW - 3, Math.max(1, cx1 - cx0), 3);
    }
  }
  function tsAt(x) { return range[0] + (x - LABEL) / (width - LABEL - 4) * (range[1] - range[0]); }
  function hit(x, y) {
    var l = Math.floor((y - AXIS) / ROW), d = Math.floor((y - AXIS - l * ROW) / band), ts = tsAt(x);
    var slack = 2 / (width - LABEL) * (range[1] - range[0]);
    for (var i = 0; i < nIv; i++)
      if (iv[5 * i] === l && iv[5 * i + 2] === d && iv[5 * i + 3] <= ts + slack && iv[5 * i + 4] >= ts - slack)
        return i;
    return -1;
  }
  canvas.onmousemove = function (ev) {
    var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
    if (drag !== null) return;
    var i = x > LABEL ? hit(x, y) : -1;
    if (i < 0) { hideTip(); return; }
    var reg = t.regions[iv[5 * i + 1]], loc = t.locations[iv[5 * i]];
    showTip(ev, reg.name + '\n' + locationLabel(loc) + '\nfrom ' + fmtTime(iv[5 * i + 3] / t.resolution) +
      ' for ' + fmtTime((iv[5 * i + 4] - iv[5 * i + 3]) / t.resolution));
  };
  canvas.onmouseleave = hideTip;
  canvas.onmousedown = function (ev) { drag = ev.clientX - canvas.getBoundingClientRect().left; };
  canvas.onmouseup = function (ev) {
    var x = ev.clientX - canvas.getBoundingClientRect().left;
    if (drag !== null && Math.abs(x - drag) > 4) {
      var a = tsAt(Math.max(LABEL, Math.min(x, drag))), b = tsAt(Math.max(x, drag));
      if (b > a) range = [a, b];
      draw();
    }
    drag = null;
  };
  canvas.ondblclick = function () { range = [0, t.duration]; draw(); };
  draw();
}

// ------------------------------------------------------------------ top regions
function renderTop(data) {
  var view = document.getElementById('top-view');
  if (!data.top) {
    view.appendChild(el('p', { class: 'note' }, 'No profile in this experiment.'));
    return;
  }
  var table = el('table', { class: 'top' }), head = el('tr');
  ['type', 'visits', 'time [s]', 'time [%]', 'time/visit [us]', 'region'].forEach(function (h) {
    head.appendChild(el('th', null, h));
  });
  table.appendChild(head);
  function row(r, cls) {
    var tr = el('tr', { class: cls });
    tr.appendChild(el('td', null, r.type));
    tr.appendChild(el('td', { class: 'num' }, String(r.visits)));
    tr.appendChild(el('td', { class: 'num' }, r.time.toFixed(6)));
    tr.appendChild(el('td', { class: 'num' }, r.percent.toFixed(1)));
    tr.appendChild(el('td', { class: 'num' }, r.per_visit_us.toFixed(2)));
    tr.appendChild(el('td', { class: 'region' }, r.region));
    table.appendChild(tr);
  }
  data.top_groups.forEach(function (r) { row(r, 'group'); });
  data.top.forEach(function (r) { row(r, 'region'); });
  view.appendChild(el('p', { class: 'hint' }, 'Exclusive time summed over all locations; ' +
    data.top.length + ' of the ' + data.top_regions + ' regions with visits. The buffer ' +
    'estimate (max_buf) and filter effects: scorep-score -r.'));
  view.appendChild(table);
}

// ------------------------------------------------------------------ wait states
function renderWaits(data) {
  var view = document.getElementById('waits-view'), w = data.waits;
  if (!w) {
    view.appendChild(el('p', { class: 'note' }, 'No wait-state analysis in this experiment ' +
      '(SCOREP_ENABLE_ANALYSIS=true, or mpirun -np N scorep-analyze on the trace).'));
    return;
  }
  view.appendChild(el('p', { id: 'waits-summary' }, 'Analysis ' + (w.mode || '?') + '; ' +
    'POP parallel efficiency ' + (100 * Number(w.pop_parallel || 0)).toFixed(1) +
    '% = load balance ' + (100 * Number(w.pop_load_balance || 0)).toFixed(1) +
    '% x communication ' + (100 * Number(w.pop_communication || 0)).toFixed(1) + '%' +
    (w.pop_serialisation ? ' (= serialisation ' +
      (100 * Number(w.pop_serialisation)).toFixed(1) + '% x transfer ' +
      (100 * Number(w.pop_transfer || 0)).toFixed(1) + '%)' : '') + '; ' +
    (w.ccv || '0') + ' clock condition violations.'));
  function table(id, heads, rows) {
    var t = el('table', { class: 'top', id: id }), head = el('tr');
    heads.forEach(function (h) { head.appendChild(el('th', null, h)); });
    t.appendChild(head);
    rows.forEach(function (cells) {
      var tr = el('tr');
      cells.forEach(function (c, i) {
        tr.appendChild(el('td', { class: typeof c === 'number' ? 'num' : 'region' },
          typeof c === 'number' ? c.toFixed(heads[i].indexOf('[%]') >= 0 ? 1 : 6)
            : String(c)));
      });
      t.appendChild(tr);
    });
    view.appendChild(t);
  }
  view.appendChild(el('h3', null, 'Patterns'));
  table('waits-patterns', ['pattern', 'time [s]', 'time [%]'],
    w.patterns.filter(function (p) { return p.seconds > 0; })
      .map(function (p) { return [p.name + ' (' + p.uniq + ')', p.seconds, p.percent]; }));
  view.appendChild(el('h3', null, 'Worst call paths, ranks and threads'));
  table('waits-worst', ['pattern', 'rank', 'time [s]', 'call path', 'thread'],
    w.worst.map(function (r) {
      return [r.pattern, String(r.rank), r.seconds, r.callpath,
        (r.location || '') + (r.thread !== undefined ? ' (' + r.thread + ')' : '')];
    }));
  renderCauses(w, table);
  view.appendChild(el('h3', null, 'Critical path (all ranks)'));
  table('waits-critical', ['time [s]', 'call path'],
    w.critical_path.map(function (r) { return [r.seconds, r.callpath]; }));
}

// The root causes of the waiting: where the delays are that made others wait (delay costs,
// Scalasca's definition, docs/analysis.md) and how waiting spreads (propagating/terminal,
// direct/indirect point-to-point wait states).
function renderCauses(w, table) {
  var view = document.getElementById('waits-view'), d = w.delay, k = w.classes;
  if (!d) return;
  function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(1) + '%' : '-'; }
  function indent(r) { return new Array(2 * r.depth + 1).join('\u00a0') + r.name; }
  view.appendChild(el('h3', null, 'Root causes: delay costs'));
  var p2p = k ? k.propagating + k.terminal : 0;
  view.appendChild(el('p', { id: 'waits-causes-summary' }, d.total > 0
    ? 'Delays (extra work of a rank or thread before a synchronisation) caused ' +
      d.total.toFixed(6) + ' s of waiting: ' + d.short_term.toFixed(6) + ' s directly ' +
      '(short-term) and ' + d.long_term.toFixed(6) + ' s through wait states they caused ' +
      'in turn (long-term). ' + (p2p > 0 ? 'Of the point-to-point waiting (' +
      p2p.toFixed(6) + ' s), ' + pct(k.propagating, p2p) + ' propagates (delays other ' +
      'ranks further) and ' + pct(k.indirect, k.direct + k.indirect) + ' is indirect ' +
      '(the rank waited for was itself waiting).' : '') +
      ' Remove the delays at the top of this table first.'
    : 'No delay costs: no wait state with an analysable cause.'));
  table('waits-causes', ['delay cost [s]', 'of all [%]', 'short-term [s]', 'long-term [s]',
    'rank', 'thread', 'call path'],
    d.causes.map(function (r) {
      return [r.seconds, r.percent, r.short_term, r.long_term, String(r.rank),
        (r.location || '') + ' (' + r.thread + ')', r.callpath];
    }));
  view.appendChild(el('h3', null, 'Delay costs by kind of wait state'));
  table('waits-delay-tree', ['delay costs', 'time [s]', 'of all [%]'],
    d.tree.filter(function (r) { return r.seconds > 0; })
      .map(function (r) {
        return [indent(r) + ' (' + r.uniq + ')', r.seconds,
          d.total > 0 ? 100 * r.seconds / d.total : 0];
      }));
  if (!k) return;
  view.appendChild(el('h3', null, 'Point-to-point wait states: propagating vs. terminal, ' +
    'direct vs. indirect'));
  table('waits-classes', ['classification', 'time [s]', 'of the p2p waiting [%]'],
    k.propagation.concat(k.directness).filter(function (r) { return r.seconds > 0; })
      .map(function (r) {
        return [indent(r) + ' (' + r.uniq + ')', r.seconds, p2p > 0 ? 100 * r.seconds / p2p : 0];
      }));
}

// ------------------------------------------------------------------ configuration
function renderConfig(data) {
  var view = document.getElementById('config-view'), c = data.config || {};
  view.appendChild(el('h3', null, 'Reduction notes (MANIFEST.md)'));
  if (c.reduction) view.appendChild(el('pre', { id: 'reduction' }, c.reduction));
  else view.appendChild(el('p', { id: 'reduction' }, data.meta.trace
    ? 'The trace is complete: no reduction, flush or throttling notes in MANIFEST.md.'
    : 'No trace, so no reduction notes.'));
  view.appendChild(el('h3', null, 'scorep.cfg (effective SCOREP_* values)'));
  view.appendChild(el('pre', { id: 'scorep-cfg' }, c.scorep_cfg || '(no scorep.cfg)'));
  view.appendChild(el('h3', null, 'MANIFEST.md'));
  view.appendChild(el('pre', { id: 'manifest' }, c.manifest || '(no MANIFEST.md)'));
}

// ------------------------------------------------------------------ task graph
// The analysis's task graph (taskgraph.dot): a simple layered drawing, each node in the
// column of its dependence depth (the longest chain of edges before it), the critical path
// red; then the table per task region and rank.
function renderTaskgraph(data) {
  var view = document.getElementById('taskgraph-view'), g = data.taskgraph;
  if (!g) {
    view.appendChild(el('p', { class: 'note' }, 'No task graph in this experiment (a run ' +
      'with OpenMP tasks, analysed in situ or by scorep-analyze).'));
    return;
  }
  var n = g.nodes.length, depth = new Array(n).fill(0), indeg = new Array(n).fill(0),
    outs = g.nodes.map(function () { return []; });
  g.edges.forEach(function (e) { outs[e.from].push(e.to); indeg[e.to]++; });
  var queue = [], i, order = 0;
  for (i = 0; i < n; i++) if (!indeg[i]) queue.push(i);
  while (order < queue.length) {
    var v = queue[order++];
    outs[v].forEach(function (w) {
      depth[w] = Math.max(depth[w], depth[v] + 1);
      if (--indeg[w] === 0) queue.push(w);
    });
  }
  var rows = [], x = [], y = [], colW = 190, rowH = 46, maxRow = 0, maxDepth = 0;
  for (i = 0; i < n; i++) {
    var d = depth[i];
    rows[d] = (rows[d] || 0) + 1;
    x[i] = 10 + d * colW;
    y[i] = 10 + (rows[d] - 1) * rowH;
    maxRow = Math.max(maxRow, rows[d]);
    maxDepth = Math.max(maxDepth, d);
  }
  if (n <= 3000) {
    // SVG markup parsed by the page (the HTML parser gives it the SVG namespace): no URL
    var esc = function (v) {
      return String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;');
    };
    var parts = ['<svg id="taskgraph-svg" width="' + (20 + (maxDepth + 1) * colW) +
      '" height="' + (20 + maxRow * rowH) + '">'];
    g.edges.forEach(function (e) {
      parts.push('<line x1="' + (x[e.from] + 150) + '" y1="' + (y[e.from] + 15) + '" x2="' +
        x[e.to] + '" y2="' + (y[e.to] + 15) + '" stroke="' + (e.red ? 'red' : '#888') +
        '" stroke-width="' + (e.red ? 3 : 1) + '" stroke-dasharray="' +
        (e.kind === 'create' ? '6 3' : e.kind === 'sync' ? '2 3' : 'none') + '"></line>');
    });
    g.nodes.forEach(function (v, k) {
      var title = '<title>' + esc((v.label || '?') + '\n' + (v.count > 1 ? v.count +
        ' tasks, ' : '') + 'duration ' + fmtTime(v.duration) + ', slack ' + fmtTime(v.slack) +
        ', on the critical path ' + fmtTime(v.critical_path) + ', rank ' + v.rank +
        ', thread ' + v.thread) + '</title>';
      if (v.join) {
        parts.push('<circle cx="' + (x[k] + 8) + '" cy="' + (y[k] + 15) + '" r="5" fill="' +
          (v.red ? 'red' : '#888') + '">' + title + '</circle>');
        return;
      }
      parts.push('<rect x="' + x[k] + '" y="' + y[k] + '" width="150" height="30" rx="4" ' +
        'fill="#fff" stroke="' + (v.red ? 'red' : '#555') + '" stroke-width="' +
        (v.red ? 3 : 1) + '">' + title + '</rect>');
      parts.push('<text x="' + (x[k] + 4) + '" y="' + (y[k] + 13) + '" font-size="10">' +
        esc((v.label || '?').replace('!$omp task ', '').slice(0, 28)) + '</text>');
      parts.push('<text x="' + (x[k] + 4) + '" y="' + (y[k] + 26) + '" font-size="10">' +
        esc(fmtTime(v.duration) + (v.count > 1 ? ' (' + v.count + ')' : '')) + '</text>');
    });
    parts.push('</svg>');
    var box = el('div', { class: 'scroll' });
    box.innerHTML = parts.join('');
    view.appendChild(box);
  } else {
    view.appendChild(el('p', { class: 'note' }, n + ' nodes: too many to draw (the table ' +
      'below has them all; SCOREP_TASKGRAPH_MAX_NODES merges the file).'));
  }
  if (g.merged)
    view.appendChild(el('p', { class: 'hint' }, 'Merged: one node per task region and ' +
      'nesting level (docs/openmp.md).'));
  var t = el('table', { class: 'top', id: 'taskgraph-table' }), head = el('tr');
  ['task region', 'rank', 'count', 'sum [s]', 'mean [s]', 'min [s]', 'max [s]',
    'least slack [s]', 'critical path [s]'].forEach(function (h) {
    head.appendChild(el('th', null, h));
  });
  t.appendChild(head);
  g.table.forEach(function (r) {
    var tr = el('tr');
    [r.label, String(r.rank), String(r.count), r.sum, r.mean, r.min, r.max, r.slack_min,
      r.critical_path].forEach(function (c) {
      tr.appendChild(el('td', { class: typeof c === 'number' ? 'num' : 'region' },
        typeof c === 'number' ? c.toFixed(6) : c));
    });
    t.appendChild(tr);
  });
  view.appendChild(t);
}

// ------------------------------------------------------------------ main
function main() {
  tooltip = document.getElementById('tooltip');
  var data;
  try {
    data = JSON.parse(document.getElementById('report-data').textContent);
  } catch (e) {
    reportError('reading the report data', e);
    return;
  }
  [['meta', renderMeta], ['flame graph', renderFlame], ['heat map', renderHeat],
    ['communication matrix', renderMatrix], ['I/O', renderIo], ['timeline', renderTimeline],
    ['wait states', renderWaits], ['task graph', renderTaskgraph], ['top regions', renderTop],
    ['configuration', renderConfig]].forEach(function (part) {
    try {
      part[1](data);
    } catch (e) {
      reportError('rendering the ' + part[0], e);
    }
  });
  if (errorsShown === 0) document.body.setAttribute('data-status', 'ok');
}

main();
