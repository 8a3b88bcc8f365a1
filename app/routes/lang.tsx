import { Outlet } from 'react-router'
import type { Route } from './+types/lang'
import { isLocale } from '#app/i18n/locales'
import { notFound } from '#app/utils/http'

/**
 * Every page lives under a language prefix. An unknown prefix (`/xx`) is a
 * 404 before any page loader runs.
 */
export const middleware: Route.MiddlewareFunction[] = [
	({ params, request }) => {
		if (!isLocale(params.lang)) notFound(request)
	},
]

export default function LangLayout() {
	return <Outlet />
}
