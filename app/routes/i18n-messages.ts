import { resources } from '#locales/index'
import type { Route } from './+types/i18n-messages'
import { isLocale } from '#app/i18n/locales'
import { notFound } from '#app/utils/http'

/** GET /_i18n/{locale}/messages.json, cached 24 hours (docs/product.md §3.2). */
export function loader({ params, request }: Route.LoaderArgs) {
	if (!isLocale(params.locale)) notFound(request)
	return Response.json(resources[params.locale].translation, {
		headers: { 'Cache-Control': 'public, max-age=86400' },
	})
}
