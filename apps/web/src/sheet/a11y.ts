// What react-datasheet-grid leaves out for keyboard and screen-reader users, added to its DOM
// (the library renders plain divs and unlabelled inputs, and offers no hook for attributes):
// - the grid is an ARIA grid (rows, column headers, row headers, cells) named by its label;
// - every cell input is named by its row and column ("Test drives, Enero");
// - the grid is one tab stop (the library's two focus sentinels leave the tab order); focused,
//   it takes the keys as before (arrows, Enter, typing, Tab across a row) and announces the
//   active cell through aria-activedescendant; Esc ends the edit, Esc again leaves the cell, and
//   then Tab leaves the grid;
// - read-only cells say so.
// Rows and columns the library virtualizes come and go as the grid scrolls: a MutationObserver
// keeps the attributes on whatever is rendered, before anything else reads the page.
import { type RefObject, useEffect, useId } from 'react';
import './sheet.css';

/** The keys of a grid, said once to a screen reader (aria-describedby). */
export const SHEET_KEYS_HELP =
  'Flechas: moverse entre celdas. Enter o escribir: editar. Esc: terminar. Esc y luego Tab: salir de la grilla.';

const ARIA_KEYS = /^(Arrow|Enter$|F2$|Home$|End$|PageUp$|PageDown$)/;

function set(el: Element, name: string, value: string) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** A header's words: its `data-label` when it gives one (a month's full name), else its text. */
function headerText(cell: Element | undefined): string {
  if (!cell) return '';
  const labelled = cell.querySelector('[data-label]');
  return (labelled?.getAttribute('data-label') ?? cell.textContent ?? '').trim();
}

const px = (v: string) => Number.parseFloat(v) || 0;

/**
 * Gives the react-datasheet-grid inside `root` the semantics above. `rows` and `columns` count
 * the data rows and the columns (with the frozen first one) the grid has, rendered or not.
 */
export function useSheetA11y(
  root: RefObject<HTMLElement | null>,
  label: string,
  rows: number,
  columns: number,
): string {
  const id = useId().replace(/:/g, '');
  const helpId = `${id}-help`;
  useEffect(() => {
    const host = root.current;
    if (!host) return;
    let frame = 0;
    /** The grid had the focus (or one of its inputs): the focus returns to it after an edit. */
    let inside = false;

    const apply = () => {
      frame = 0;
      const grid = host.querySelector<HTMLElement>('.dsg-container');
      if (!grid) return;
      set(grid, 'role', 'grid');
      set(grid, 'aria-label', label);
      set(grid, 'aria-rowcount', String(rows + 1));
      set(grid, 'aria-colcount', String(columns));
      set(grid, 'aria-describedby', helpId);
      if (grid.getAttribute('tabindex') !== '0') grid.tabIndex = 0;
      // The library's focus sentinels around the grid: the grid itself is the tab stop.
      for (const el of Array.from(grid.parentElement?.children ?? []))
        if (el !== grid && el.getAttribute('tabindex') === '0') el.setAttribute('tabindex', '-1');

      const rowEls = Array.from(grid.querySelectorAll<HTMLElement>('.dsg-row'));
      const header = rowEls.find((r) => r.classList.contains('dsg-row-header'));
      const headers = header ? Array.from(header.children) : [];
      const headerHeight = header ? px(header.style.height) : 0;
      if (header) {
        set(header, 'role', 'row');
        set(header, 'aria-rowindex', '1');
        for (const h of headers) set(h, 'role', 'columnheader');
      }
      const active = grid.querySelector<HTMLElement>('.dsg-active-cell');
      let activeId = '';
      for (const row of rowEls) {
        if (row === header) continue;
        const height = px(row.style.height) || 1;
        const index = Math.round((px(row.style.top) - headerHeight) / height);
        set(row, 'role', 'row');
        set(row, 'aria-rowindex', String(index + 2));
        const cells = Array.from(row.children) as HTMLElement[];
        const rowName = (cells[0]?.textContent ?? '').trim();
        const onActiveRow = active && Math.abs(px(active.style.top) - px(row.style.top)) < 2;
        cells.forEach((cell, j) => {
          const gutter = cell.classList.contains('dsg-cell-gutter');
          set(cell, 'role', gutter ? 'rowheader' : 'gridcell');
          set(cell, 'id', `${id}-r${index}-c${px(cell.style.left)}`);
          if (gutter) return;
          const readOnly = cell.classList.contains('dsg-cell-disabled');
          set(cell, 'aria-readonly', String(readOnly));
          const colName = headerText(headers[j]);
          const input = cell.querySelector('input');
          if (input) {
            set(input, 'aria-label', rowName ? `${rowName}, ${colName}` : colName);
            if (readOnly) set(input, 'readonly', '');
            else input.removeAttribute('readonly');
          }
          if (onActiveRow && Math.abs(px(active.style.left) - px(cell.style.left)) < 2) activeId = cell.id;
        });
      }
      for (const cell of Array.from(grid.querySelectorAll('[aria-selected="true"]')))
        if (cell.id !== activeId) cell.removeAttribute('aria-selected');
      if (activeId) {
        set(grid, 'aria-activedescendant', activeId);
        document.getElementById(activeId)?.setAttribute('aria-selected', 'true');
        // The library blurs whatever had the focus when a cell becomes active, and an edit that
        // ends blurs its input: the focus comes back to the grid, where the keys still work.
        if (inside && (document.activeElement === document.body || document.activeElement === null))
          grid.focus({ preventScroll: true });
      } else grid.removeAttribute('aria-activedescendant');
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(apply);
    };

    const onFocusIn = (e: FocusEvent) => {
      const grid = host.querySelector<HTMLElement>('.dsg-container');
      if (!grid || !grid.contains(e.target as Node)) return;
      inside = true;
      // Focused by the keyboard with no active cell: the first cell becomes active (through the
      // library's own sentinel, which activates it).
      if (e.target === grid && !grid.querySelector('.dsg-active-cell') && grid.matches(':focus-visible'))
        (grid.previousElementSibling as HTMLElement | null)?.focus();
    };
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      // Focus moving to another control ends the grid's turn; to nothing (the library's blur, or
      // an edit that ends) not: the grid takes it back once the library is done.
      if (next && !host.contains(next)) inside = false;
      else if (!next && inside) setTimeout(schedule, 0);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      const grid = host.querySelector<HTMLElement>('.dsg-container');
      if (e.target === grid && grid && !grid.querySelector('.dsg-active-cell') && ARIA_KEYS.test(e.key)) {
        e.preventDefault();
        (grid.previousElementSibling as HTMLElement | null)?.focus();
      }
    };
    const onMouseDown = (e: MouseEvent) => {
      inside = !!host.querySelector('.dsg-container')?.contains(e.target as Node);
    };

    // Applied in the observer's own callback (a microtask after the library's render), not at the
    // next frame: a reader (or axe) that looks between the render and that frame met unlabelled
    // inputs (the CI's sweep once counted 18 on the daily grid).
    const observer = new MutationObserver(() => {
      if (frame) cancelAnimationFrame(frame);
      apply();
    });
    observer.observe(host, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['style', 'class'],
    });
    host.addEventListener('focusin', onFocusIn);
    host.addEventListener('focusout', onFocusOut);
    host.addEventListener('keydown', onKeyDown);
    document.addEventListener('mousedown', onMouseDown, true);
    apply();
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
      host.removeEventListener('focusin', onFocusIn);
      host.removeEventListener('focusout', onFocusOut);
      host.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('mousedown', onMouseDown, true);
    };
  }, [root, label, rows, columns, helpId, id]);
  return helpId;
}
