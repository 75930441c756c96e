/**
 * The phone menu's keyboard and screen-reader behaviour, on top of what the browser does for
 * the popover (open and close with the button, Escape, a tap outside, focus back to the
 * button): aria-expanded follows the panel, opening moves focus to its first link, Tab and
 * Shift+Tab cycle inside it while it is open, following a link closes it, and the tap outside
 * that closes it does nothing else. Loaded by the navbar the first time its Menu button is
 * focused or pressed, so a first visit pays nothing for it.
 */
const enhanced = new WeakSet<HTMLElement>();
let menu: { button: HTMLElement; panel: HTMLElement } | null = null;
let openAtPress = false;

// The popover's dimmed backdrop lets taps through: one that closes the menu (the browser's
// light dismiss) must not also follow the link or press the button under it.
document.addEventListener(
  'pointerdown',
  () => (openAtPress = menu?.panel.matches(':popover-open') ?? false),
  true,
);
document.addEventListener(
  'click',
  (event) => {
    if (!openAtPress || !menu || !(event.target instanceof Node)) return;
    openAtPress = false;
    if (menu.panel.contains(event.target) || menu.button.contains(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
  },
  true,
);

export function enhanceMenu(button: HTMLButtonElement): void {
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!panel || enhanced.has(button)) return;
  enhanced.add(button);
  menu = { button, panel };
  const items = () => [...panel.querySelectorAll<HTMLElement>('a[href], button:not(:disabled)')];
  const sync = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    if (open) items()[0]?.focus();
  };
  panel.addEventListener('toggle', (event) => sync((event as ToggleEvent).newState === 'open'));
  panel.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || !panel.matches(':popover-open')) return;
    const all = items();
    const [first, last] = [all[0], all[all.length - 1]];
    if (document.activeElement === (event.shiftKey ? first : last)) {
      event.preventDefault();
      (event.shiftKey ? last : first)?.focus();
    }
  });
  // A link in the panel navigates in place (client-side): the menu has done its job.
  panel.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('a')) return;
    if (panel.matches(':popover-open')) panel.hidePopover();
  });
  // The first press may have opened the panel while this module was on its way.
  if (panel.matches(':popover-open')) sync(true);
}
