import { Link } from 'react-router'
import { FormErrors } from '#app/components/forms'

export function PickEmployee({ errors }: { errors: string[] | null | undefined }) {
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        Invite colleagues
      </h1>
      <FormErrors errors={errors} />
      <div className="card flex flex-col gap-3">
        <h2 className="text-lg font-semibold">Choose an employee first</h2>
        <p className="text-slate-700">
          As an administrator you invite colleagues on an employee’s behalf, one employee at a time. Find the
          employee on the employees page and open their invitations from there; this page then shows their
          schemes, the colleagues already invited and the invitation form.
        </p>
        <p>
          <Link className="btn btn-primary" to="/admin/employee-management">
            Go to employees
          </Link>
        </p>
      </div>
    </section>
  )
}
