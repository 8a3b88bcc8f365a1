import { redirect } from 'react-router'
import type { Route } from './+types/consent'
import { servicesContext } from '#app/context.server'
import { consentFromForm, consentReturnPath } from '#app/modules/consent/consent.server'

/**
 * POST /consent: the cookie banner's buttons without JavaScript, and the
 * "allow and load" prompts. Sets the same two cookies as the settings in
 * the browser and goes back to the page (same-origin paths only).
 */
export async function action({ request, context }: Route.ActionArgs) {
	const { env } = context.get(servicesContext)
	const form = await request.formData()
	const cookies = consentFromForm(form, request, env)
	if (!cookies) return new Response('Bad request', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	const headers = new Headers()
	for (const cookie of cookies) headers.append('set-cookie', cookie)
	return redirect(consentReturnPath(form), { status: 303, headers })
}

/** Nothing to show: a GET (a bookmarked form target) goes home. */
export function loader() {
	return redirect('/')
}
