// Builds the run form from an endpoint's declared parameters: a select where `allowed` lists the
// values, a text field otherwise, `required` marked; the sandbox SQL box where the endpoint allows it.

import { el } from './dom.js';

export function renderParamFields(container, endpoint, remembered = {}) {
  container.replaceChildren();
  for (const p of endpoint.params ?? []) {
    const id = `param-${p.name}`;
    const label = el('label', { htmlFor: id, textContent: p.name + (p.required ? ' (required)' : '') });
    let input;
    if (Array.isArray(p.allowed) && p.allowed.length) {
      input = el('select', { id, name: p.name, required: !!p.required }, ...p.allowed.map((v) => el('option', { value: v, textContent: v })));
    } else {
      input = el('input', { id, name: p.name, required: !!p.required, placeholder: p.type === 'timestamp' ? '2025-01-15T05:00:00Z' : '' });
    }
    if (remembered[p.name] !== undefined) input.value = remembered[p.name];
    container.append(label, input);
  }
  if (!endpoint.params?.length) container.append(el('p', { className: 'muted', textContent: 'This endpoint declares no parameters.' }));
}

/** The form's non-empty values by parameter name (the sandbox SQL under `sql`). */
export function formValues(form) {
  const out = {};
  for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() !== '') out[k] = v;
  return out;
}
