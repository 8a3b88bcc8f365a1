import { data } from 'react-router'
import type { Route } from './+types/auth-create'
import { createProfile } from './auth.server'

export function action({ request, context }: Route.ActionArgs) {
	return createProfile(request, context)
}

/** State changes are POSTs only: a link or an image on another site must not trigger them. */
export function loader() {
	throw data(null, { status: 405, headers: { Allow: 'POST' } })
}
