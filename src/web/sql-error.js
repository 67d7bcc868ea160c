// Marks where a sandbox SQL error is: the message, the offending line with the character at the
// error's column highlighted and a caret under it, the textarea flagged invalid with the cursor there.

import { el } from './dom.js';

export function clearSqlError(textarea, box) {
  textarea.removeAttribute('aria-invalid');
  box.replaceChildren();
}

/** Shows `error` ({message, line?, column?}, 1-based) against the SQL in `textarea`. */
export function markSqlError(textarea, box, error) {
  textarea.setAttribute('aria-invalid', 'true');
  const line = Number(error.line), column = Number(error.column);
  const where = line > 0 && column > 0 && !/line \d+/i.test(error.message) ? `Line ${line}, column ${column}: ` : '';
  box.replaceChildren(el('p', { className: 'sql-error-message', textContent: where + error.message }));
  if (!(line > 0 && column > 0)) return;
  const lines = textarea.value.split('\n');
  const text = lines[line - 1] ?? '';
  const at = Math.min(column - 1, text.length);
  const mark = el('mark', { textContent: text.slice(at, at + 1) || ' ', title: `line ${line}, column ${column}` });
  const snippet = el('div', { className: 'sql-mark' },
    el('span', { textContent: `${line} | ${text.slice(0, at)}` }), mark, el('span', { textContent: text.slice(at + 1) }),
    el('br'), el('span', { textContent: ' '.repeat(String(line).length + 3 + at) + '^', ariaHidden: 'true' }));
  snippet.dataset.line = String(line);
  snippet.dataset.column = String(column);
  box.append(snippet);
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  textarea.setSelectionRange(offset + at, offset + at + 1);
}
