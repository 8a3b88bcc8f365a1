import { type RouteConfig, route } from '@react-router/dev/routes'

export default [route('form', 'routes/form.tsx')] satisfies RouteConfig
