import { Form, redirect, type ActionFunctionArgs } from 'react-router'

/**
 * The least an action of a form can do: read the posted form, check a field,
 * and answer with a redirect (as the product's boost form does, without
 * anything of the product's: no session, no database, no toast).
 */
export async function action({ request }: ActionFunctionArgs) {
	const form = await request.formData()
	const amount = Number(form.get('amount'))
	if (!Number.isInteger(amount) || amount <= 0) return redirect('/form?error=amount', 303)
	return redirect(`/form#dare-${String(form.get('dareId') ?? '')}`, 303)
}

export default function FormPage() {
	return (
		<Form method="post">
			<input type="hidden" name="dareId" value="1" />
			<input name="amount" inputMode="numeric" defaultValue="10" />
			<button type="submit">Boost</button>
		</Form>
	)
}
