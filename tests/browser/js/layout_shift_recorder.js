// Installed before a page's own scripts run: records every layout shift of the page
// (the Layout Instability API) in window.__layoutShifts, as Lighthouse and Chrome's
// field data see them.
(() => {
  window.__layoutShifts = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__layoutShifts.push({
          value: e.value,
          time: e.startTime,
          hadRecentInput: e.hadRecentInput,
          sources: (e.sources || []).map((s) => {
            const n = s.node;
            if (!n || !n.nodeName) return "?";
            const el = n.nodeType === 1 ? n : n.parentElement;
            if (!el) return n.nodeName;
            const cls = el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).slice(0, 2).join(".") : "";
            return el.nodeName.toLowerCase() + (el.id ? "#" + el.id : "") + cls;
          }),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  } catch (err) {
    window.__layoutShifts = null; // the API is missing: the test says so
  }
})();
