import { Link } from 'react-router';
import { DepartmentImage } from '../components/product-image';
import { useRootData } from '../root';

/** /home has no layout: a bare welcome page that still runs start-up (root data only). */
export default function HomePage() {
  const departments = useRootData()?.departments ?? [];
  return (
    <main id="main" className="bare-home">
      <h1>Welcome to Showroom</h1>
      <p>Pick a room to start with.</p>
      <ul className="bare-home__list">
        {departments.map((department) => (
          <li key={department.slug}>
            <Link to={`/department/${department.slug}`}>
              <DepartmentImage slug={department.slug} alt="" />
              {department.name}
            </Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/">Enter the shop</Link>
      </p>
    </main>
  );
}
