// A few helpers to build DOM nodes in plain JS: h("button", {class: "x", onclick}, "text").

/**
 * @typedef {string | number | boolean | null | undefined | ((event: any) => void) | Record<string, string>} AttrValue
 * @typedef {Node | string | number | null | undefined | false} Leaf
 * @typedef {Leaf | any[]} Child nested arrays of children are flattened
 */

/**
 * An element with attributes and children. `on...` attributes become listeners, `dataset` an object
 * of data-* attributes, `false`/`null`/`undefined` attributes are left out, `true` ones are present.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "dataset" && typeof value === "object") {
      for (const [key, data] of Object.entries(value)) element.dataset[key] = data;
    } else if (typeof value !== "function" && typeof value !== "object") {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {Child[]} children
 */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Replace what `parent` shows, keeping the keyboard focus on the control with the same `data-focus`
 * key (screens redraw on every update, and a player who tabbed to a card must not be thrown back to
 * the top of the page).
 * @param {Element} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focus : undefined;
  const fragment = document.createDocumentFragment();
  const holder = document.createElement("div");
  append(holder, children);
  fragment.append(...holder.childNodes);
  parent.replaceChildren(fragment);
  if (focused) {
    const again = focusable(parent, focused);
    if (again) again.focus();
  }
}

/**
 * The control to give the focus back to: the one with the same `data-focus` key, or (when it is gone,
 * like a card just played) the first one of its kind ("hand-12" -> "hand-..."); never a disabled one.
 * @param {ParentNode} parent
 * @param {string} key
 * @returns {HTMLElement | null}
 */
export function focusable(parent, key) {
  const kind = key.split("-")[0];
  const candidates = [...parent.querySelectorAll(`[data-focus="${CSS.escape(key)}"], [data-focus^="${CSS.escape(kind)}"]`)];
  const usable = candidates.filter((element) => element instanceof HTMLElement && !element.matches(":disabled") && (element.tabIndex >= 0 || element.matches("button, a[href], input, select")));
  const same = usable.find((element) => element instanceof HTMLElement && element.dataset.focus === key);
  const found = same ?? usable[0];
  return found instanceof HTMLElement ? found : null;
}
