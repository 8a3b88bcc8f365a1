import { redirect } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/logout'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'

/** Sign out is a POST (a link or an image on another site cannot sign anyone out). */
export async function action({ request, context, params }: Route.ActionArgs) {
	const { accounts } = context.get(servicesContext).platform
	const t = getInstance(context).t
	const result = await accounts.signOut(request)
	if (!result.ok) return redirectWithError(`/${params.lang}`, t('auth.sign-out-failed'), { headers: result.headers })
	return redirectWithSuccess(`/${params.lang}`, t('auth.sign-out-success'), { headers: result.headers })
}

export function loader({ params }: Route.LoaderArgs) {
	return redirect(`/${params.lang}`)
}
