// axe-core's violations on the page (axe.min.js must be injected first).  The optional
// argument holds axe.run options, such as {runOnly: ["color-contrast"]}.
async (options) => {
  const result = await axe.run(document, { resultTypes: ["violations"], ...(options || {}) });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}
