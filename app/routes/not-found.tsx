import type { Route } from './+types/not-found'
import { notFound } from '#app/utils/http'

/** Any path no route claims: 404 'Page not found: {path}', rendered by the root error boundary. */
export function loader({ request }: Route.LoaderArgs) {
	notFound(request)
}

export default function NotFound() {
	return null
}
