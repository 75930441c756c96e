// The stylesheet's text (processed and minified by Vite like any stylesheet), for the server to
// write into every document (styles/document-styles.tsx). Server-only: no script carries it.
import css from './app.css?inline';

export const APP_CSS: string = css;
