import 'react';

declare module 'react' {
  interface ImgHTMLAttributes<T> extends HTMLAttributes<T> {
    /** Element Timing's name for the image: the browser reports when it was painted. */
    elementtiming?: string | undefined;
  }
}
