import { Link } from 'react-router';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div>
          <strong>Showroom</strong>
          <p>Furniture for every room, delivered with care.</p>
        </div>
        <nav aria-label="Footer">
          <Link to="/demo">Demo settings</Link>
          <Link to="/flags">Feature flags</Link>
          <Link to="/inspector">Session inspector</Link>
          <Link to="/scenarios">Scenarios</Link>
          <Link to="/loyalty-signup">Loyalty programme</Link>
          <Link to="/video-quality-monitoring-demo">Video demo</Link>
        </nav>
        <p className="footer__note">A demo shop: no real orders are shipped.</p>
      </div>
    </footer>
  );
}
