/** Your profile: completed by its own issue; the route and its layout exist now. */
export default function ProfilePage() {
  return (
    <section className="placeholder-page">
      <h1>Your profile</h1>
      <p className="muted">Sign in to see your orders and saved payments.</p>
    </section>
  );
}
