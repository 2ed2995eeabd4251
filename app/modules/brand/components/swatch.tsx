/** A colour sample beside its hex code (decorative: the code is the text). */
export function Swatch({ colour }: { colour: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-5 w-5 rounded border border-slate-300"
      style={{ backgroundColor: colour }}
    />
  )
}
