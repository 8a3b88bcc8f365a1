import type { Route } from './+types/auth-username'
import { usernameAvailable } from './auth.server'

export function loader({ request, context }: Route.LoaderArgs) {
	return usernameAvailable(request, context)
}
