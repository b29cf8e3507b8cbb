/**
 * A small recursive-descent evaluator for the Calculator: numbers, + - * / ** (also ^ as a power), unary signs and
 * parentheses, with Python's precedence (** binds tighter than a unary minus and groups to the right). No names,
 * no calls, no eval: anything else is a syntax error that says where.
 */

export class ArithmeticError extends Error {
  override name = 'ArithmeticError';
}

type Token = { kind: 'number'; value: number; at: number } | { kind: 'op'; value: string; at: number } | { kind: 'end'; at: number };

export function evaluateExpression(expression: string): number {
  const tokens = tokenize(expression);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const take = () => tokens[pos++]!;
  const isOp = (value: string) => peek().kind === 'op' && (peek() as { value: string }).value === value;

  // sum := product (('+' | '-') product)*
  function sum(): number {
    let value = product();
    while (isOp('+') || isOp('-')) value = (take() as { value: string }).value === '+' ? value + product() : value - product();
    return value;
  }
  // product := unary (('*' | '/') unary)*
  function product(): number {
    let value = unary();
    while (isOp('*') || isOp('/')) {
      const op = take();
      const right = unary();
      if (op.kind === 'op' && op.value === '/') {
        if (right === 0) throw new ArithmeticError(`Division by zero at position ${op.at + 1}`);
        value /= right;
      } else value *= right;
    }
    return value;
  }
  // unary := ('+' | '-') unary | power
  function unary(): number {
    if (isOp('-')) return take() && -unary();
    if (isOp('+')) return take() && +unary();
    return power();
  }
  // power := atom ('**' unary)?   (right-associative; the exponent may carry a sign)
  function power(): number {
    const base = atom();
    if (!isOp('**')) return base;
    const op = take();
    const exponent = unary();
    if (base === 0 && exponent < 0) throw new ArithmeticError(`Division by zero at position ${op.at + 1} (0 to a negative power)`);
    const value = base ** exponent;
    if (Number.isNaN(value)) throw new ArithmeticError(`${base} ** ${exponent} is not a real number`);
    return value;
  }
  // atom := number | '(' sum ')'
  function atom(): number {
    const token = take();
    if (token.kind === 'number') return token.value;
    if (token.kind === 'op' && token.value === '(') {
      const value = sum();
      const close = take();
      if (close.kind !== 'op' || close.value !== ')') throw new ArithmeticError(`Expected ')' at position ${close.at + 1}`);
      return value;
    }
    throw new ArithmeticError(token.kind === 'end' ? 'The expression ends too early' : `Unexpected '${token.value}' at position ${token.at + 1}`);
  }

  if (peek().kind === 'end') throw new ArithmeticError('The expression is empty');
  const value = sum();
  const rest = peek();
  if (rest.kind !== 'end') throw new ArithmeticError(`Unexpected '${rest.kind === 'op' ? rest.value : rest.value}' at position ${rest.at + 1}`);
  if (!Number.isFinite(value)) throw new ArithmeticError('The result is too large');
  return value;
}

const NUMBER = /(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const c = expression[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(expression);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0].replace(/_/g, '')), at: i });
      i = NUMBER.lastIndex;
    } else if (expression.startsWith('**', i)) {
      tokens.push({ kind: 'op', value: '**', at: i });
      i += 2;
    } else if ('+-*/()^'.includes(c)) {
      tokens.push({ kind: 'op', value: c === '^' ? '**' : c, at: i });
      i++;
    } else {
      throw new ArithmeticError(`Unexpected '${c}' at position ${i + 1}: only numbers, + - * / ** and parentheses are allowed`);
    }
  }
  tokens.push({ kind: 'end', at: expression.length });
  return tokens;
}
