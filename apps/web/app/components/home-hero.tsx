import { Link } from 'react-router';
import { useObjectFlagValue } from '../flags/use-flag';

interface HeroBanner {
  title: string;
  subtitle: string;
  tone: 'light' | 'dark' | 'accent';
}

const DEFAULT_BANNER: HeroBanner = {
  title: 'Furniture for every room',
  subtitle: 'Solid timber tables, deep sofas, soft bedding and warm light — made to last.',
  tone: 'light',
};

// The flag's default, made once: the hook compares defaults by identity.
const DEFAULT_BANNER_FLAG = { ...DEFAULT_BANNER };

function asBanner(value: unknown): HeroBanner {
  if (typeof value !== 'object' || value === null) return DEFAULT_BANNER;
  const { title, subtitle, tone } = value as Record<string, unknown>;
  if (typeof title !== 'string' || typeof subtitle !== 'string') return DEFAULT_BANNER;
  return { title, subtitle, tone: tone === 'dark' || tone === 'accent' ? tone : 'light' };
}

/** The home page banner: its copy and tone come from the `home_hero_banner` JSON flag. */
export function HomeHero() {
  const banner = asBanner(useObjectFlagValue('home_hero_banner', DEFAULT_BANNER_FLAG));
  return (
    <section className={`home-hero home-hero--${banner.tone}`} data-testid="home-hero">
      <div className="home-hero__copy">
        <p className="landing__kicker">New season</p>
        <h1>{banner.title}</h1>
        <p>{banner.subtitle}</p>
        <Link to="/department/tables/product/10" className="button button--primary">
          Meet the table of the season
        </Link>
      </div>
    </section>
  );
}
