// The layering of CONVENTIONS.md, checked by `npm run lint:deps` (part of `npm test`).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-imports-neither-side',
      comment: 'contract/ is the wire, shared by app and server: it imports neither of them.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'pages-go-through-stores',
      comment: 'pages → stores → api → contract: a page never calls src/api/ itself.',
      severity: 'error',
      from: { path: '^src/pages/' },
      to: { path: '^src/api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'components-never-fetch',
      comment: 'components render: they never call src/api/ nor import a page.',
      severity: 'error',
      from: { path: '^src/components/' },
      to: { path: '^src/(api|pages)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'components-read-no-store',
      comment:
        'components render what they are given (props, a signal passed in); the shell and the pages read stores (src/pages/shell holds the layout and the offline notice). Types only.',
      severity: 'error',
      from: { path: '^src/components/' },
      to: { path: '^src/stores/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lib-imports-nothing-of-the-app',
      comment: 'src/lib holds pure helpers: it imports nothing of the app but contract types.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/(api|stores|pages|components)/' },
    },
    {
      name: 'stores-never-render',
      comment: 'stores hold state and flows; pages and components render it.',
      severity: 'error',
      from: { path: '^src/stores/' },
      to: { path: '^src/(pages|components)/' },
    },
    {
      name: 'api-below-stores',
      comment: 'the data layer knows nothing of stores or screens.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(stores|pages|components)/' },
    },
    {
      name: 'db-knows-no-http',
      comment: 'server/db holds repositories: no Fastify, no routes, no HTTP errors.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '(^server/(routes|plugins|errors\\.ts|app\\.ts|auth)|node_modules/(fastify|@fastify)/)' },
    },
    {
      name: 'auth-knows-no-plugins',
      comment: 'server/auth holds tokens, sessions and the bearer check; the plugins wire them into Fastify (and pass in what the check needs).',
      severity: 'error',
      from: { path: '^server/auth/' },
      to: { path: '^server/(plugins|routes)/|^server/app\\.ts' },
    },
    {
      name: 'domain-knows-no-http',
      comment:
        'domain code (teams, push, feeds, uploads, backup) throws its own errors; routes and plugins/errors.ts turn them into HTTP answers.',
      severity: 'error',
      from: { path: '^server/(teams|push|feeds|uploads|backup)/' },
      to: { path: '(^server/(routes|plugins|errors\\.ts|app\\.ts)|node_modules/(fastify|@fastify)/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-never-imports-server',
      comment: 'nothing of the server reaches a phone.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'sql-lives-in-db',
      comment: 'the repository layer owns every statement (CONVENTIONS.md): outside server/db/, no Drizzle but its types.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/db/' },
      to: { path: '(^|/)drizzle-orm(/|$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(src|contract|server)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
}
