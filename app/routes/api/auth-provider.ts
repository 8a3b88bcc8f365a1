import type { Route } from './+types/auth-provider'
import { servicesContext } from '#app/context.server'
import { notFound } from '#app/utils/http'

/**
 * The sign-in provider's own endpoints (the Google and Twitch OAuth
 * callbacks under /api/auth/provider/callback/*), answered by the
 * platform's account service; anything else here is a 404.
 */
async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
	const { accounts } = context.get(servicesContext).platform
	const response = await accounts.handle(request)
	if (!response) notFound(request)
	return response
}

export const loader = handle
export const action = handle
