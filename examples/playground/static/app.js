// The rollout playground's page: it reads the controls, calls the
// WebAssembly module (rolloutPlay and friends, see main_js.go) and shows
// the result; the state lives in the URL fragment.
"use strict";

const controls = ["image", "replicas", "maxSurge", "maxUnavailable", "readyAfter", "terminating", "qps"];
const $ = (id) => document.getElementById(id);
const LINE = 18; // px, the editor's line height (style.css --line)

let examples = [];
let versionsShown = false;
let scheduled = false;

function readState() {
  const st = { manifest: $("manifest").value, version: $("version").value, deployment: $("deployment-label").hidden ? "" : $("deployment").value };
  for (const c of controls) st[c] = $(c).value.trim();
  return st;
}

function writeState(st) {
  $("manifest").value = st.manifest || "";
  for (const c of controls) $(c).value = st[c] || "";
  if (st.version) {
    ensureVersion(st.version);
    $("version").value = st.version;
  }
  if (st.deployment) {
    ensureOption($("deployment"), st.deployment);
    $("deployment").value = st.deployment;
  }
  renumber();
}

function ensureVersion(v) { ensureOption($("version"), v); }

function ensureOption(sel, v) {
  if (![...sel.options].some((o) => o.value === v)) sel.add(new Option(v, v));
}

// renumber writes the gutter's line numbers.
function renumber() {
  const n = $("manifest").value.split("\n").length;
  const g = $("gutter");
  if (g.childElementCount === n) return;
  g.textContent = "";
  for (let i = 1; i <= n; i++) {
    const s = document.createElement("span");
    s.textContent = i;
    s.dataset.line = i;
    g.append(s, "\n");
  }
  markLines(lastMarks);
}

let lastMarks = [];

// markLines highlights lines of the editor: [{line, kind}].
function markLines(marks) {
  lastMarks = marks;
  const box = $("marks");
  box.textContent = "";
  for (const s of $("gutter").children) s.className = "";
  for (const m of marks) {
    const d = document.createElement("div");
    d.className = m.kind;
    d.dataset.line = m.line;
    d.style.top = 6 + (m.line - 1) * LINE + "px";
    box.append(d);
    const g = $("gutter").children[m.line - 1];
    if (g && g.className !== "error") g.className = m.kind;
  }
  syncScroll();
}

function syncScroll() {
  const t = $("manifest");
  $("gutter").scrollTop = t.scrollTop;
  $("marks").style.transform = `translate(${-t.scrollLeft}px, ${-t.scrollTop}px)`;
}

// goToLine selects a line of the editor and scrolls it into view.
function goToLine(line) {
  const t = $("manifest");
  const lines = t.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  t.focus();
  t.setSelectionRange(start, start + (lines[line - 1] || "").length);
  t.scrollTop = Math.max(0, (line - 1) * LINE - t.clientHeight / 3);
  syncScroll();
}

function problemItem(p, kind) {
  const li = document.createElement("li");
  li.className = kind;
  if (p.line) {
    li.dataset.line = p.line;
    const w = document.createElement("span");
    w.className = "where";
    w.textContent = "line " + p.line;
    li.append(w);
    li.addEventListener("click", () => goToLine(p.line));
  } else if (p.control) {
    const w = document.createElement("span");
    w.className = "where";
    w.textContent = p.control;
    li.append(w);
  }
  li.append(p.message);
  return li;
}

// show puts a result on the page.
function show(res) {
  if (!versionsShown && res.versions) {
    const sel = $("version");
    const keep = sel.value;
    sel.textContent = "";
    sel.add(new Option("newest (" + res.versions[0] + ")", ""));
    for (const v of res.versions) sel.add(new Option(v, v));
    if (keep) { ensureVersion(keep); sel.value = keep; }
    $("version-label").hidden = res.versions.length < 2;
    versionsShown = true;
  }
  const deps = res.deployments || [];
  const dsel = $("deployment");
  if (deps.length > 1) {
    const keep = dsel.value;
    dsel.textContent = "";
    for (const d of deps) dsel.add(new Option(d, d));
    if (deps.includes(keep)) dsel.value = keep;
    $("deployment-label").hidden = false;
  } else {
    $("deployment-label").hidden = true;
  }
  for (const c of controls) $(c).classList.remove("invalid");
  const list = $("problems");
  list.textContent = "";
  const marks = [];
  for (const p of res.errors || []) {
    list.append(problemItem(p, "error"));
    if (p.line) marks.push({ line: p.line, kind: "error" });
    if (p.control && $(p.control)) $(p.control).classList.add("invalid");
  }
  for (const f of res.findings || []) {
    const kind = f.severity === "error" ? "error" : f.severity === "warning" ? "warning" : "info";
    list.append(problemItem(f, kind));
    if (f.line) marks.push({ line: f.line, kind: kind === "error" ? "error" : "warning" });
  }
  markLines(marks);
  const notes = $("notes");
  notes.textContent = "";
  for (const n of res.notes || []) {
    const li = document.createElement("li");
    li.textContent = n;
    notes.append(li);
  }
  const summary = $("summary");
  if (res.ok) {
    summary.textContent = res.summary;
    summary.classList.toggle("failed", !/^outcome:\s+complete/.test(res.summary));
    $("chart").innerHTML = res.chart; // generated by package render, its text escaped
    $("timeline").textContent = res.timeline;
  } else {
    summary.textContent = "No rollout: " + (res.errors && res.errors.length ? res.errors[0].message : "see above");
    summary.classList.add("failed");
    $("chart").textContent = "";
    $("timeline").textContent = "";
  }
}

// update runs the module on the page's state and shows the result;
// fromUser also writes the state into the URL.
function update(fromUser) {
  const st = readState();
  const t0 = performance.now();
  const res = JSON.parse(globalThis.rolloutPlay(JSON.stringify(st)));
  show(res);
  const ms = performance.now() - t0;
  window.lastRenderMs = ms;
  window.renders = (window.renders || 0) + 1;
  $("timing").textContent = `computed and drawn in ${Math.round(ms)} ms`;
  if (fromUser) history.replaceState(null, "", "#" + globalThis.rolloutFragment(JSON.stringify(st)));
}

// schedule runs update once per frame however many changes come in.
function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => { scheduled = false; update(true); });
}

function loadFragment() {
  const parsed = JSON.parse(globalThis.rolloutParseFragment(location.hash.replace(/^#/, "")));
  writeState(parsed.state);
  update(false);
  if (parsed.error) $("problems").prepend(problemItem({ message: "The link is broken: " + parsed.error }, "error"));
}

function init() {
  examples = JSON.parse(globalThis.rolloutExamples());
  const pick = $("example");
  for (const e of examples) pick.add(new Option(e.title, e.name));
  pick.addEventListener("change", () => {
    const e = examples.find((x) => x.name === pick.value);
    if (!e) return;
    writeState(Object.assign({ version: $("version").value }, e.state));
    update(true);
  });
  const t = $("manifest");
  t.addEventListener("input", () => { renumber(); schedule(); });
  t.addEventListener("scroll", syncScroll);
  t.addEventListener("keydown", (ev) => {
    if (ev.key === "Tab" && !ev.shiftKey && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      t.setRangeText("  ", t.selectionStart, t.selectionEnd, "end");
      renumber();
      schedule();
    }
  });
  for (const c of controls) $(c).addEventListener("input", schedule);
  $("version").addEventListener("change", schedule);
  $("deployment").addEventListener("change", schedule);
  $("share").addEventListener("click", async () => {
    history.replaceState(null, "", "#" + globalThis.rolloutFragment(JSON.stringify(readState())));
    try {
      await navigator.clipboard.writeText(location.href);
      $("status").textContent = "link copied";
    } catch {
      $("status").textContent = "the link is in the address bar";
    }
  });
  window.addEventListener("hashchange", loadFragment);
  loadFragment();
  $("status").textContent = "ready";
  document.body.dataset.ready = "true";
}

async function start() {
  const go = new Go();
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(fetch("play.wasm"), go.importObject);
  } catch {
    const bytes = await (await fetch("play.wasm")).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, go.importObject);
  }
  go.run(result.instance);
  init();
}

start().catch((err) => {
  $("status").textContent = "the module failed to load: " + err;
  document.body.dataset.ready = "failed";
});
