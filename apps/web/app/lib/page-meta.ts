/**
 * A page's title ("… — Showroom") and its meta description: what a search engine lists and a
 * shared link previews. Every page has both (README, "Accessibility").
 */
export function pageMeta(title: string, description: string) {
  return [{ title: `${title} — Showroom` }, { name: 'description', content: description }];
}
