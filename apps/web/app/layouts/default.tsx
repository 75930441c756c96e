import { Outlet } from 'react-router';
import { Footer } from '../components/footer';
import { Navbar } from '../components/navbar';
import { useRootData } from '../root';

/** The shop's default frame: navbar, page, footer. */
export default function DefaultLayout() {
  const root = useRootData();
  return (
    <div className="page">
      <Navbar departments={root?.departments ?? []} />
      <main id="main" className="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
