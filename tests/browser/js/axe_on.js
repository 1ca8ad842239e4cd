// axe-core's violations inside one element (the argument: [selector, options]), at every
// impact; options narrow the rules (for example {runOnly: ["color-contrast"]}).
async ([selector, options]) => {
  const result = await axe.run(document.querySelector(selector),
                               { resultTypes: ["violations"], ...(options || {}) });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}
