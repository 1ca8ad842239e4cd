// HTML_CodeSniffer's errors on the page by the WCAG 2 AA standard (HTMLCS.js must be
// injected first).  Only errors (type 1): warnings and notices are things to check by
// hand ("check that the title describes the document"), which a test cannot decide.
() => new Promise((resolve, reject) => {
  const describe = (e) => {
    if (!e || !e.tagName) return "(document)";
    const id = e.id ? `#${e.id}` : "";
    const cls = typeof e.className === "string" && e.className.trim()
      ? "." + e.className.trim().split(/\s+/).slice(0, 3).join(".") : "";
    return `${e.tagName.toLowerCase()}${id}${cls}: ${e.outerHTML.slice(0, 120)}`;
  };
  HTMLCS.process("WCAG2AA", document, () => {
    resolve(HTMLCS.getMessages()
      .filter((m) => m.type === HTMLCS.ERROR)
      .map((m) => ({ code: m.code, msg: m.msg.slice(0, 200), element: describe(m.element) })));
  }, () => reject(new Error("HTML_CodeSniffer could not run")), "en");
})
