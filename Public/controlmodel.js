// What the panel's parameter controls are, from the server's specs (hello.paramSpecs): one
// description per control, in the order the panel shows them: the sliders, then the number
// fields, then the menus, then the toggles (together in one row), each group in the server's
// order. Pure, no DOM: controls.js builds the elements from it.
import { lowest, normalizeSpecs } from './params.js';

/**
 * The controls for `specs` (hello.paramSpecs as sent, or normalized). Each is
 * {name, control, label, description, spec} and
 * - slider: range {min, max, step} (min: the first allowed stop) and box {min, max, label},
 *   the number box beside it (it takes any value in range: step 'any');
 * - field: box {min, max} alone;
 * - menu: options, the names to choose from in the server's order (a <select>);
 * - toggle: nothing more (a checkbox).
 * Specs the page cannot use (unknown kinds, no finite range) give no control.
 */
export function controlModel(specs) {
  const all = normalizeSpecs(specs);
  const controls = [];
  for (const control of ['slider', 'field', 'menu', 'toggle']) {
    for (const spec of all) {
      if (spec.control !== control) continue;
      const c = { name: spec.name, control, label: spec.label, description: spec.description, spec };
      if (control === 'menu') {
        c.options = [...spec.options];
      } else if (control !== 'toggle') {
        const min = lowest(spec);
        c.box = { min, max: spec.max, step: 'any' };
        if (control === 'slider') {
          c.range = { min, max: spec.max, step: spec.step ?? 'any' };
          c.box.label = `${spec.label} value`;
        }
      }
      controls.push(c);
    }
  }
  return controls;
}
