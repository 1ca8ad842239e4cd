// What a search engine and the page's layout read first: the language, the title, the
// meta descriptions, and the pictures drawn without a reserved size.
() => {
  const reserved = (img) => {
    if (img.hasAttribute("width") && img.hasAttribute("height")) return true;
    const style = getComputedStyle(img);
    if (style.aspectRatio && style.aspectRatio !== "auto") return true;
    // both lengths fixed by the stylesheet (not "auto", not a percentage of the picture)
    const fixed = (v) => /^[0-9.]+(px|em|rem)$/.test(img.style[v] || "") ;
    return fixed("width") && fixed("height");
  };
  return {
    lang: document.documentElement.getAttribute("lang") || "",
    title: document.title.trim(),
    descriptions: [...document.querySelectorAll('meta[name="description"]')].map((m) => m.getAttribute("content") || ""),
    unsizedImages: [...document.images]
      .filter((img) => img.getClientRects().length > 0 && !reserved(img))
      .map((img) => (img.getAttribute("src") || "").slice(0, 80)),
  };
}
