// How wide the page is against the window, and the outermost elements that stick out.
() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const wide = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > width + 1) {
      // report the outermost offenders only
      const p = e.parentElement && e.parentElement.getBoundingClientRect();
      if (!p || p.right <= width + 1) wide.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} (right edge ${Math.round(r.right)} px)`);
    }
  }
  return { scrollWidth: root.scrollWidth, clientWidth: width, wide: wide.slice(0, 8) };
}
