import { type Ecosystem, goModules, npm, uv } from './dependencies';
import { goTests, JEST, PYTEST, TERRAFORM_TEST, type TestCase, type TestKit, VITEST } from './test-kits';

/*
 * Each demo repository as its agent meets it: how it is laid out, the file most work touches
 * (before any edit, after a fix, after a change of behaviour), the fault its alerts report, its
 * tests and checks, and its dependencies.
 */

export interface Toolchain {
  look: string;
  lookOutput: string;
  file: string;
  before: string;
  /** `before` with the fault behind `alert` mended. */
  fixed: string;
  /** `before` with a change of behaviour (a new feature or option). */
  changed: string;
  /** What the fault in `before` raises, and where: the function and line of `file` its stack names. */
  alert: { error: string; function: string; line: number };
  check: string;
  checkOutput: string;
  tests: TestKit;
  /** The imports of a test file of `file`. */
  testHeader: string;
  /** A case that fails on `before` (with `alert.error`) and passes on `fixed`. */
  regression: string;
  /** A few cases a new test file holds. */
  cases: TestCase[];
  dependencies: Ecosystem | null;
}

const STOREFRONT: Toolchain = {
  look: 'git log --oneline -5 && ls',
  lookOutput:
    'a41c2e9 Merge pull request #1204\n7d0b3f1 Bump vitest to 4.1\nc93e8aa Fix cart total rounding\nREADME.md  app  package.json  public  tests',
  file: 'app/page.tsx',
  before:
    "import { CartSummary } from './cart-summary';\nimport { getCart } from '@/lib/cart';\n\nexport default async function Page() {\n  const cart = await getCart();\n  return <CartSummary items={cart.items} />;\n}\n",
  fixed:
    "import { CartSummary } from './cart-summary';\nimport { getCart } from '@/lib/cart';\n\nexport default async function Page() {\n  // A guest who never added anything has no cart yet.\n  const cart = await getCart();\n  return <CartSummary items={cart?.items ?? []} />;\n}\n",
  changed:
    "import { Suspense } from 'react';\nimport { CartSummary, CartSummarySkeleton } from './cart-summary';\nimport { getCart } from '@/lib/cart';\n\nexport default async function Page() {\n  const cart = await getCart();\n  return (\n    <Suspense fallback={<CartSummarySkeleton />}>\n      <CartSummary items={cart.items} currency={cart.currency} />\n    </Suspense>\n  );\n}\n",
  alert: { error: "TypeError: Cannot read properties of undefined (reading 'items')", function: 'Page', line: 6 },
  check: 'npm test -- --run',
  checkOutput: [
    ' RUN  v4.1.2 /workspace/storefront',
    '',
    ' ✓ tests/cart/total.test.ts (12 tests) 41ms',
    ' ✓ tests/cart/discounts.test.ts (18 tests) 63ms',
    ' ✓ tests/checkout/address.test.tsx (9 tests) 212ms',
    ' ✓ tests/checkout/payment.test.tsx (14 tests) 388ms',
    ' ✓ tests/search/query.test.ts (31 tests) 97ms',
    ' ✓ tests/app/page.test.tsx (6 tests) 154ms',
    '',
    ' Test Files  38 passed (38)',
    '      Tests  412 passed (412)',
    '   Duration  9.84s',
  ].join('\n'),
  tests: VITEST,
  testHeader:
    "import { render, screen } from '@testing-library/react';\nimport { expect, it, vi } from 'vitest';\nimport Page from '@/app/page';\nimport { getCart } from '@/lib/cart';\n\nvi.mock('@/lib/cart');",
  regression:
    "  vi.mocked(getCart).mockResolvedValue(undefined);\n  render(await Page());\n  expect(screen.getByText('Your cart is empty')).toBeInTheDocument();",
  cases: [
    {
      name: 'lists every item of the cart',
      body: "  vi.mocked(getCart).mockResolvedValue({ items: [{ sku: 'TEE-M', quantity: 2 }, { sku: 'CAP', quantity: 1 }], currency: 'EUR' });\n  render(await Page());\n  expect(screen.getAllByRole('listitem')).toHaveLength(2);",
    },
    {
      name: 'shows the total in the cart currency',
      body: "  vi.mocked(getCart).mockResolvedValue({ items: [{ sku: 'TEE-M', quantity: 2, price: 1999 }], currency: 'EUR' });\n  render(await Page());\n  expect(screen.getByTestId('cart-total')).toHaveTextContent('€39.98');",
    },
    {
      name: 'offers checkout only when the cart has items',
      body: "  vi.mocked(getCart).mockResolvedValue({ items: [], currency: 'EUR' });\n  render(await Page());\n  expect(screen.queryByRole('link', { name: 'Checkout' })).not.toBeInTheDocument();",
    },
  ],
  dependencies: npm(
    'storefront',
    { next: '14.2.15', react: '18.3.1', zod: '3.23.7', '@sentry/nextjs': '8.33.1', '@tanstack/react-query': '5.59.0' },
    [
      { name: '@sentry/nextjs', from: '8.33.1', to: '8.34.0' },
      { name: 'zod', from: '3.23.7', to: '3.23.8' },
      { name: '@tanstack/react-query', from: '5.59.0', to: '5.59.16' },
    ],
  ),
};

export const TOOLCHAINS: Record<string, Toolchain> = {
  'acme/storefront': STOREFRONT,
  'acme/mobile-app': {
    ...STOREFRONT,
    file: 'App.tsx',
    before:
      "import { NavigationContainer } from '@react-navigation/native';\nimport { RootStack } from './src/navigation';\n\nexport default function App() {\n  return (\n    <NavigationContainer>\n      <RootStack />\n    </NavigationContainer>\n  );\n}\n",
    fixed:
      "import { NavigationContainer } from '@react-navigation/native';\nimport { CrashScreen, ErrorBoundary } from './src/errors';\nimport { RootStack } from './src/navigation';\n\nexport default function App() {\n  return (\n    <NavigationContainer>\n      <ErrorBoundary fallback={<CrashScreen />}>\n        <RootStack />\n      </ErrorBoundary>\n    </NavigationContainer>\n  );\n}\n",
    changed:
      "import { NavigationContainer } from '@react-navigation/native';\nimport { linking } from './src/linking';\nimport { RootStack } from './src/navigation';\n\nexport default function App() {\n  return (\n    <NavigationContainer linking={linking}>\n      <RootStack />\n    </NavigationContainer>\n  );\n}\n",
    alert: { error: "TypeError: undefined is not an object (evaluating 'route.params.id')", function: 'App', line: 7 },
    check: 'npx jest --silent',
    checkOutput: 'Tests:       96 passed, 96 total\nTime:        14.2 s',
    tests: JEST,
    testHeader:
      "import { render, screen } from '@testing-library/react-native';\nimport App from '../App';\nimport { openProduct } from '../src/navigation';",
    regression:
      "  render(<App />);\n  openProduct(undefined);\n  expect(await screen.findByText('Something went wrong')).toBeOnTheScreen();",
    cases: [
      { name: 'opens on the home screen', body: "  render(<App />);\n  expect(await screen.findByText('Home')).toBeOnTheScreen();" },
      {
        name: 'opens a product from its link',
        body: "  render(<App />);\n  openProduct('TEE-M');\n  expect(await screen.findByTestId('product-TEE-M')).toBeOnTheScreen();",
      },
    ],
    dependencies: npm('mobile-app', { expo: '51.0.37', react: '18.3.1', 'react-native': '0.75.4', 'react-native-reanimated': '3.15.4' }, [
      { name: 'expo', from: '51.0.37', to: '51.0.38' },
      { name: 'react-native-reanimated', from: '3.15.4', to: '3.16.1' },
    ]),
  },
  'acme/design-system': {
    ...STOREFRONT,
    file: 'src/Button.tsx',
    before:
      "export function Button({ variant = 'primary', ...props }: ButtonProps) {\n  return <button className={styles[variant]} {...props} />;\n}\n",
    fixed:
      "export function Button({ variant = 'primary', type = 'button', ...props }: ButtonProps) {\n  return <button type={type} className={styles[variant] ?? styles.primary} {...props} />;\n}\n",
    changed:
      "export function Button({ variant = 'primary', size = 'md', ...props }: ButtonProps) {\n  return <button className={clsx(styles[variant], styles[size])} {...props} />;\n}\n",
    alert: { error: "AssertionError: expected 'submit' to be 'button'", function: 'Button', line: 2 },
    testHeader:
      "import { render, screen } from '@testing-library/react';\nimport { expect, it } from 'vitest';\nimport { Button } from '../src/Button';",
    regression: "  render(<Button>Save</Button>);\n  expect(screen.getByRole('button')).toHaveAttribute('type', 'button');",
    cases: [
      {
        name: 'renders its label',
        body: "  render(<Button>Save</Button>);\n  expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();",
      },
      {
        name: 'takes the class of its variant',
        body: "  render(<Button variant=\"secondary\">Cancel</Button>);\n  expect(screen.getByRole('button')).toHaveClass('secondary');",
      },
      {
        name: 'passes disabled through',
        body: "  render(<Button disabled>Save</Button>);\n  expect(screen.getByRole('button')).toBeDisabled();",
      },
    ],
    dependencies: npm('@acme/design-system', { react: '18.3.1', clsx: '2.1.0', '@floating-ui/react': '0.26.24' }, [
      { name: '@floating-ui/react', from: '0.26.24', to: '0.26.25' },
    ]),
  },
  'acme/payments-api': {
    look: 'git log --oneline -5 && ls internal',
    lookOutput: 'e5f0b21 Add payout batch metrics\n19ac7d3 Refactor ledger client\nbilling  ledger  payouts  refunds  webhooks',
    file: 'internal/refunds/refund.go',
    before:
      'package refunds\n\n// Issue refunds the charge, in full or in part.\nfunc Issue(ctx context.Context, charge *Charge, amount int64) (Refund, error) {\n\treturn client.Refund(ctx, charge.ID, amount)\n}\n',
    fixed:
      'package refunds\n\n// Issue refunds the charge, in full or in part.\nfunc Issue(ctx context.Context, charge *Charge, amount int64) (Refund, error) {\n\tif charge == nil {\n\t\treturn Refund{}, ErrNoCharge\n\t}\n\tif amount <= 0 || amount > charge.Amount {\n\t\treturn Refund{}, fmt.Errorf("refund of %d on %s: %w", amount, charge.ID, ErrInvalidAmount)\n\t}\n\treturn client.Refund(ctx, charge.ID, amount)\n}\n',
    changed:
      'package refunds\n\n// Issue refunds the charge, in full or in part.\nfunc Issue(ctx context.Context, charge *Charge, amount int64) (Refund, error) {\n\tctx, span := tracer.Start(ctx, "refunds.Issue", trace.WithAttributes(attribute.String("charge.id", charge.ID)))\n\tdefer span.End()\n\treturn client.Refund(ctx, charge.ID, amount)\n}\n',
    alert: { error: 'runtime error: invalid memory address or nil pointer dereference', function: 'refunds.Issue', line: 5 },
    check: 'go test ./...',
    checkOutput:
      'ok  \tacme/payments-api/internal/billing\t0.412s\nok  \tacme/payments-api/internal/refunds\t0.208s\nok  \tacme/payments-api/internal/webhooks\t1.031s',
    tests: goTests('acme/payments-api/internal/refunds', 'internal/refunds'),
    testHeader: 'package refunds\n\nimport (\n\t"context"\n\t"errors"\n\t"testing"\n)',
    regression:
      '\tif _, err := Issue(context.Background(), nil, 500); !errors.Is(err, ErrNoCharge) {\n\t\tt.Fatalf("Issue(nil charge) = %v, want ErrNoCharge", err)\n\t}',
    cases: [
      {
        name: 'refunds part of a charge',
        body: '\trefund, err := Issue(context.Background(), &Charge{ID: "ch_1", Amount: 1000}, 400)\n\tif err != nil || refund.Amount != 400 {\n\t\tt.Fatalf("Issue = %+v, %v; want a refund of 400", refund, err)\n\t}',
      },
      {
        name: 'rejects a negative amount',
        body: '\tif _, err := Issue(context.Background(), &Charge{ID: "ch_1", Amount: 1000}, -1); !errors.Is(err, ErrInvalidAmount) {\n\t\tt.Fatalf("Issue(-1) = %v, want ErrInvalidAmount", err)\n\t}',
      },
      {
        name: 'rejects more than was charged',
        body: '\tif _, err := Issue(context.Background(), &Charge{ID: "ch_1", Amount: 1000}, 1001); !errors.Is(err, ErrInvalidAmount) {\n\t\tt.Fatalf("Issue(1001) = %v, want ErrInvalidAmount", err)\n\t}',
      },
    ],
    dependencies: goModules(
      'acme/payments-api',
      { 'github.com/jackc/pgx/v5': 'v5.5.5', 'github.com/stripe/stripe-go/v80': 'v80.1.0', 'go.opentelemetry.io/otel': 'v1.30.0' },
      [
        { name: 'github.com/stripe/stripe-go/v80', from: 'v80.1.0', to: 'v80.2.0' },
        { name: 'go.opentelemetry.io/otel', from: 'v1.30.0', to: 'v1.31.0' },
      ],
    ),
  },
  'acme/infra': {
    look: 'ls staging production modules',
    lookOutput: 'staging:\nmain.tf  variables.tf\n\nproduction:\nmain.tf  variables.tf\n\nmodules:\neks  rds  redis  vpc',
    file: 'staging/main.tf',
    before: 'module "redis" {\n  source         = "../modules/redis"\n  node_type      = "cache.t4g.small"\n  replica_count  = 1\n}\n',
    fixed:
      'module "redis" {\n  source                     = "../modules/redis"\n  node_type                  = "cache.t4g.small"\n  replica_count              = 2\n  automatic_failover_enabled = true\n}\n',
    changed:
      'module "redis" {\n  source         = "../modules/redis"\n  node_type      = "cache.t4g.small"\n  replica_count  = 1\n  tags           = merge(local.tags, { Service = "cache" })\n}\n',
    alert: { error: 'module.redis.replica_count is 1: a failover needs at least 2 replicas.', function: 'module.redis', line: 4 },
    check: 'terraform fmt -check -recursive && terraform validate',
    checkOutput: 'Success! The configuration is valid.',
    tests: TERRAFORM_TEST,
    testHeader: 'variables {\n  environment = "staging"\n}',
    regression:
      '  command = plan\n\n  assert {\n    condition     = module.redis.replica_count >= 2\n    error_message = "module.redis.replica_count is 1: a failover needs at least 2 replicas."\n  }',
    cases: [
      {
        name: 'redis runs on graviton nodes',
        body: '  command = plan\n\n  assert {\n    condition     = startswith(module.redis.node_type, "cache.t4g.")\n    error_message = "Redis should run on t4g nodes."\n  }',
      },
      {
        name: 'redis is private',
        body: '  command = plan\n\n  assert {\n    condition     = module.redis.publicly_accessible == false\n    error_message = "Redis must not be reachable from the internet."\n  }',
      },
    ],
    dependencies: null,
  },
  'data/pipelines': {
    look: 'ls dags models',
    lookOutput: 'dags:\ndaily_sessions.py  nightly_export.py\n\nmodels:\nmarts  staging',
    file: 'dags/daily_sessions.py',
    before:
      'with DAG("daily_sessions", schedule="0 3 * * *", catchup=False) as dag:\n    extract = extract_sessions()\n    load = load_to_warehouse(extract)\n',
    fixed:
      'with DAG("daily_sessions", schedule="0 3 * * *", catchup=False) as dag:\n    extract = extract_sessions()\n    unique = drop_duplicates(extract, key=["session_id", "started_at"])\n    load = load_to_warehouse(unique)\n',
    changed:
      'with DAG("daily_sessions", schedule="0 3 * * *", catchup=False, default_args={"retries": 2, "retry_delay": timedelta(minutes=10)}) as dag:\n    extract = extract_sessions()\n    load = load_to_warehouse(extract)\n',
    alert: { error: 'AssertionError: 1204 duplicate session rows loaded', function: 'daily_sessions', line: 3 },
    check: 'dbt build --select state:modified+',
    checkOutput: 'Completed successfully\n\nDone. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14',
    tests: PYTEST,
    testHeader: 'from dags.daily_sessions import dag\nfrom tests.fixtures import run_task, sessions',
    regression:
      '    loaded = run_task(dag, "load_to_warehouse", sessions(duplicated=1204))\n    assert loaded.duplicated(["session_id", "started_at"]).sum() == 0',
    cases: [
      { name: 'the dag runs daily at three', body: '    assert dag.schedule_interval == "0 3 * * *"\n    assert dag.catchup is False' },
      { name: 'load follows extract', body: '    assert dag.get_task("load_to_warehouse").upstream_task_ids >= {"extract_sessions"}' },
    ],
    dependencies: uv('pipelines', { 'apache-airflow': '2.10.2', 'dbt-core': '1.8.7', pandas: '2.2.3' }, [
      { name: 'dbt-core', from: '1.8.7', to: '1.8.8' },
    ]),
  },
  'data/forecasting': {
    look: 'ls && head -20 train.py',
    lookOutput: 'README.md  features  notebooks  tests  train.py\ndef train(frame):\n    ...',
    file: 'train.py',
    before:
      'def train(frame):\n    model = GradientBoostingRegressor(n_estimators=200)\n    model.fit(frame[FEATURES], frame["demand"])\n    return model\n',
    fixed:
      'def train(frame):\n    model = GradientBoostingRegressor(n_estimators=200)\n    complete = frame.dropna(subset=[*FEATURES, "demand"])\n    model.fit(complete[FEATURES], complete["demand"])\n    return model\n',
    changed:
      'def train(frame, seed=SEED):\n    model = GradientBoostingRegressor(n_estimators=200, random_state=seed)\n    model.fit(frame[FEATURES], frame["demand"])\n    return model\n',
    alert: { error: 'ValueError: Input X contains NaN.', function: 'train', line: 3 },
    check: 'pytest -q',
    checkOutput: '........................                                   [100%]\n24 passed in 4.81s',
    tests: PYTEST,
    testHeader: 'import numpy as np\n\nfrom tests.fixtures import demand_frame\nfrom train import train',
    regression: '    frame = demand_frame(rows=200)\n    frame.loc[::7, "price"] = np.nan\n    assert train(frame).n_features_in_ > 0',
    cases: [
      { name: 'fits on a quarter of data', body: '    model = train(demand_frame(rows=90))\n    assert model.n_estimators_ == 200' },
      {
        name: 'predicts positive demand',
        body: '    frame = demand_frame(rows=120)\n    assert (train(frame).predict(frame.drop(columns="demand")) > 0).all()',
      },
    ],
    dependencies: uv('forecasting', { numpy: '2.1.1', pandas: '2.2.3', 'scikit-learn': '1.5.2' }, [
      { name: 'scikit-learn', from: '1.5.2', to: '1.5.3' },
    ]),
  },
};

/** The toolchain of `repository`; a repository the demo does not describe works like the storefront. */
export const toolchainOf = (repository: string): Toolchain => TOOLCHAINS[repository] ?? STOREFRONT;
