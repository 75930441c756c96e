import { useState } from 'react';
import { viewsFor, type PhotoSet, type PhotoView } from '@showroom/contracts/product-images';
import type { ImageHint } from '@showroom/contracts/faults';
import { ProductImage } from './product-image';

const VIEW_LABELS = ['In a room', 'Front view', 'Close-up'];

/** The product's photos: one large image and thumbnails that switch it. */
export function ProductGallery({
  productId,
  name,
  set,
  hint,
}: {
  productId: number;
  name: string;
  set: PhotoSet;
  /** The api's image hint (an image fault flag, decision 010). */
  hint?: ImageHint | undefined;
}) {
  const [active, setActive] = useState<PhotoView>(0);
  const viewList = viewsFor(set);
  return (
    <div className="gallery" data-testid="gallery" data-photo-set={set}>
      <div className="gallery__main">
        <ProductImage
          key={`${set}-${active}`}
          productId={productId}
          set={set}
          view={active}
          alt={`${name} — ${VIEW_LABELS[active] ?? 'photo'}`}
          sizes="(max-width: 900px) 100vw, 640px"
          priority
          hint={hint}
        />
      </div>
      <div className="gallery__thumbs" role="group" aria-label="Photos">
        {viewList.map((view) => (
          <button
            key={view}
            type="button"
            className="gallery__thumb"
            aria-pressed={view === active}
            aria-label={`Show ${VIEW_LABELS[view] ?? `photo ${view + 1}`}`}
            onClick={() => setActive(view)}
          >
            <ProductImage
              productId={productId}
              set={set}
              view={view}
              alt=""
              sizes="96px"
              hint={hint}
            />
          </button>
        ))}
      </div>
    </div>
  );
}
