/** Edit profile: completed by its own issue; the route and its layout exist now. */
export default function ProfileEditPage() {
  return (
    <section className="placeholder-page">
      <h1>Edit profile</h1>
      <p className="muted">Change your name and e-mail address.</p>
    </section>
  );
}
