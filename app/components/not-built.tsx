/** Said plainly on pages whose feature belongs to a later piece of work. */
export function NotBuiltYet({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {title}
      </h1>
      <div className="card flex flex-col gap-2">
        <p className="font-semibold">This part of Panorama is not built yet.</p>
        <p className="text-slate-700">
          The page exists and is protected, but its feature arrives in a later release. Nothing here is saved
          or changed.
        </p>
        {children}
      </div>
    </section>
  )
}
