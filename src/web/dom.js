// One tiny element builder for the page's modules: tag, properties, children (nodes or text).

export function el(tag, props = {}, ...kids) {
  const node = Object.assign(document.createElement(tag), props);
  for (const k of kids) node.append(k);
  return node;
}
