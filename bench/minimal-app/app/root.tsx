import { Links, Meta, Outlet, Scripts } from 'react-router'

export default function Root() {
	return (
		<html lang="en">
			<head>
				<meta charSet="utf-8" />
				<Meta />
				<Links />
			</head>
			<body>
				<Outlet />
				<Scripts />
			</body>
		</html>
	)
}
