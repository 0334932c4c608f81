/* The expression compiler behind the black-box engine's `--expr`: a recursive-descent parser
 * that emits a flat stack-machine program, with a small peephole optimiser. expr_eval.c runs
 * it and the register programs it translates it to; expr_interval.c runs it over boxes. See
 * expr.h for the grammar. */
#include "engines/expr.h"
#include "engines/expr_program.h"
#include "core/grow.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double apply_unary(int u, double v)
{
    switch (u) {
#define CASE(name, expr)                                                                                     \
    case U_##name:                                                                                           \
        return expr;
        UNARY_OPS(CASE)
#undef CASE
    }
    return NAN;
}

static double apply_binary(int b, double l, double r)
{
    switch (b) {
#define CASE(name, expr)                                                                                     \
    case B_##name:                                                                                           \
        return expr;
        BINARY_OPS(CASE)
#undef CASE
    }
    return NAN;
}

/* ---- the lexer ---------------------------------------------------------------------- */

typedef enum token_kind {
    T_END,
    T_NUMBER,
    T_IDENT,
    T_LPAREN,
    T_RPAREN,
    T_COMMA,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_POW,
    T_LT,
    T_LE,
    T_GT,
    T_GE,
    T_EQ,
    T_NE,
    T_AND,
    T_OR,
    T_NOT,
} token_kind;

typedef enum value_type { TYPE_ERROR = -1, TYPE_NUMBER = 0, TYPE_CONDITION = 1 } value_type;

typedef struct parser {
    const char *text;
    size_t pos; /* next byte to lex */
    /* the current token */
    token_kind tok;
    size_t tok_start;
    size_t tok_len;
    double number;

    int n_vars;
    int nesting;
    insn *code;
    size_t n;
    size_t capacity;
    size_t barrier; /* the peephole never rewrites instructions before this (a jump target) */
    bool failed;
    bool nomem;
    pb_expr_error *error;
} parser;

static int column_of(size_t offset)
{
    return (int)offset + 1;
}

static void fail_at(parser *p, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fail_at(parser *p, size_t offset, const char *fmt, ...)
{
    if (p->failed)
        return; /* keep the first error: it is where the mistake is */
    p->failed = true;
    if (!p->error)
        return;
    p->error->column = column_of(offset);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->error->message, sizeof p->error->message, fmt, ap);
    va_end(ap);
}

static bool is_ident_start(int c)
{
    return isalpha(c) || c == '_';
}
static bool is_ident_char(int c)
{
    return isalnum(c) || c == '_';
}

/* Describe the current token for a message: "'foo'" or "the end of the expression". */
static void describe_token(const parser *p, char *buf, size_t size)
{
    if (p->tok == T_END) {
        snprintf(buf, size, "the end of the expression");
        return;
    }
    int len = p->tok_len > 40 ? 40 : (int)p->tok_len;
    snprintf(buf, size, "'%.*s%s'", len, p->text + p->tok_start, p->tok_len > 40 ? "..." : "");
}

static bool lex_number(parser *p)
{
    const char *s = p->text + p->pos;
    size_t i = 0;
    size_t digits = 0;
    while (isdigit((unsigned char)s[i])) {
        i++;
        digits++;
    }
    if (s[i] == '.') {
        i++;
        while (isdigit((unsigned char)s[i])) {
            i++;
            digits++;
        }
    }
    bool bad = digits == 0;
    if (!bad && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        } else if (j > i + 1 || !is_ident_char((unsigned char)s[j])) {
            bad = true; /* "2e", "2e+" */
            i = j;
        }
        /* else "2exp(1)": the number 2 followed by a name, left to the parser */
    }
    /* a number glued to more digits or dots ("1.2.3") is one malformed number */
    while (s[i] == '.' || isdigit((unsigned char)s[i])) {
        bad = true;
        i++;
    }
    p->tok = T_NUMBER;
    p->tok_len = i;
    if (bad) {
        fail_at(p, p->pos, "malformed number '%.*s'", (int)(i > 40 ? 40 : i), s);
        return false;
    }
    /* strtod on a private copy: the token grammar above is a subset of strtod's decimal
     * syntax, and the copy keeps strtod from reading hex or "inf" past the token. */
    char small[64];
    char *copy = i < sizeof small ? small : malloc(i + 1);
    if (!copy) {
        p->nomem = true;
        fail_at(p, p->pos, "out of memory");
        return false;
    }
    memcpy(copy, s, i);
    copy[i] = '\0';
    p->number = strtod(copy, NULL);
    if (copy != small)
        free(copy);
    if (!isfinite(p->number)) {
        fail_at(p, p->pos, "number '%.*s' is too large", (int)(i > 40 ? 40 : i), s);
        return false;
    }
    p->pos += i;
    return true;
}

/* Read the next token into p->tok. Returns false (with the error set) on a lexical error. */
static bool next(parser *p)
{
    const char *s = p->text;
    while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r')
        p->pos++;
    p->tok_start = p->pos;
    const unsigned char c = (unsigned char)s[p->pos];
    const unsigned char c1 = c ? (unsigned char)s[p->pos + 1] : 0;
    size_t len = 1;
    switch (c) {
    case '\0':
        p->tok = T_END;
        len = 0;
        break;
    case '(':
        p->tok = T_LPAREN;
        break;
    case ')':
        p->tok = T_RPAREN;
        break;
    case ',':
        p->tok = T_COMMA;
        break;
    case '+':
        p->tok = T_PLUS;
        break;
    case '-':
        p->tok = T_MINUS;
        break;
    case '/':
        p->tok = T_SLASH;
        break;
    case '^':
        p->tok = T_POW;
        break;
    case '*':
        p->tok = c1 == '*' ? T_POW : T_STAR;
        len = c1 == '*' ? 2 : 1;
        break;
    case '<':
        p->tok = c1 == '=' ? T_LE : T_LT;
        len = c1 == '=' ? 2 : 1;
        break;
    case '>':
        p->tok = c1 == '=' ? T_GE : T_GT;
        len = c1 == '=' ? 2 : 1;
        break;
    case '=':
        if (c1 != '=') {
            fail_at(p, p->pos, "'=' is not an operator; compare with '=='");
            return false;
        }
        p->tok = T_EQ;
        len = 2;
        break;
    case '!':
        p->tok = c1 == '=' ? T_NE : T_NOT;
        len = c1 == '=' ? 2 : 1;
        break;
    case '&':
        if (c1 != '&') {
            fail_at(p, p->pos, "'&' is not an operator; use 'and' (or '&&')");
            return false;
        }
        p->tok = T_AND;
        len = 2;
        break;
    case '|':
        if (c1 != '|') {
            fail_at(p, p->pos, "'|' is not an operator; use 'or' (or '||')");
            return false;
        }
        p->tok = T_OR;
        len = 2;
        break;
    default:
        if (isdigit(c) || (c == '.' && isdigit(c1)))
            return lex_number(p);
        if (is_ident_start(c)) {
            while (is_ident_char((unsigned char)s[p->pos + len]))
                len++;
            p->tok = T_IDENT;
            if (len == 3 && memcmp(s + p->pos, "and", 3) == 0)
                p->tok = T_AND;
            else if (len == 2 && memcmp(s + p->pos, "or", 2) == 0)
                p->tok = T_OR;
            else if (len == 3 && memcmp(s + p->pos, "not", 3) == 0)
                p->tok = T_NOT;
            break;
        }
        if (c == '.')
            fail_at(p, p->pos, "malformed number '.'");
        else if (isprint(c))
            fail_at(p, p->pos, "unexpected character '%c'", c);
        else
            fail_at(p, p->pos, "unexpected byte 0x%02X", c);
        return false;
    }
    p->tok_len = len;
    p->pos += len;
    return true;
}

/* ---- code generation with a peephole optimiser -------------------------------------- */

static bool emit(parser *p, int op, int32_t arg, double k)
{
    if (p->n == p->capacity) {
        if (p->capacity >= MAX_CODE) {
            fail_at(p, p->tok_start, "expression is too long (more than %u instructions)", MAX_CODE);
            return false;
        }
        insn *code = pb_reserve(p->code, &p->capacity, p->n + 1, sizeof *code, 32);
        if (!code) {
            p->nomem = true;
            fail_at(p, p->tok_start, "out of memory");
            return false;
        }
        p->code = code;
    }
    p->code[p->n++] = (insn){.op = op, .arg = arg, .k = k};
    return true;
}

/* The i-th instruction from the end when the peephole may touch it, else NULL. */
static insn *recent(parser *p, size_t back)
{
    if (p->n < back || p->n - back < p->barrier)
        return NULL;
    return &p->code[p->n - back];
}

static bool emit_unary(parser *p, int u)
{
    insn *last = recent(p, 1);
    if (last && last->op == OP_CONST) {
        last->k = apply_unary(u, last->k);
        return true;
    }
    return emit(p, UNARY(u), 0, 0.0);
}

/* The comparison with its operands swapped: a < b is b > a. */
static int swapped(int b)
{
    switch (b) {
    case B_LT:
        return B_GT;
    case B_LE:
        return B_GE;
    case B_GT:
        return B_LT;
    case B_GE:
        return B_LE;
    case B_ADD:
    case B_MUL:
    case B_EQ:
    case B_NE:
    case B_MIN:
    case B_MAX:
    case B_HYPOT:
        return b;
    default:
        return -1;
    }
}

/* Emit binary operator `b` whose left operand's code starts at `lhs_start` and right
 * operand's at `rhs_start`. Number-typed code never contains jumps, so moving it is safe. */
static bool emit_binary(parser *p, int b, size_t lhs_start, size_t rhs_start)
{
    insn *last = recent(p, 1);
    insn *before = recent(p, 2);
    if (last && before && last->op == OP_CONST && before->op == OP_CONST && rhs_start == p->n - 1) {
        before->k = apply_binary(b, before->k, last->k);
        p->n--;
        return true;
    }
    /* A single-instruction left operand of a commutative operator becomes the fused right
     * operand: 2*cos(x0) runs as cos(x0)*2. */
    const int swap = swapped(b);
    if (swap >= 0 && lhs_start >= p->barrier && rhs_start == lhs_start + 1 && p->n > rhs_start + 1 &&
        (p->code[lhs_start].op == OP_CONST || p->code[lhs_start].op == OP_VAR)) {
        const insn operand = p->code[lhs_start];
        memmove(&p->code[lhs_start], &p->code[rhs_start], (p->n - rhs_start) * sizeof(insn));
        p->code[p->n - 1] = operand;
        b = swap;
        last = recent(p, 1);
    }
    if (last && last->op == OP_CONST) {
        const double k = last->k;
        if (b == B_POW && k == 2.0) {
            p->n--;
            return emit(p, UNARY(U_SQUARE), 0, 0.0);
        }
        last->op = BINARY(b, FORM_CONST);
        return true;
    }
    if (last && last->op == OP_VAR) {
        last->op = BINARY(b, FORM_VAR);
        return true;
    }
    return emit(p, BINARY(b, FORM_STACK), 0, 0.0);
}

/* ---- the parser --------------------------------------------------------------------- */

static value_type parse_or(parser *p);

static const char *type_name(value_type t)
{
    return t == TYPE_CONDITION ? "a condition" : "a number";
}

static bool enter(parser *p)
{
    if (++p->nesting > MAX_NESTING) {
        fail_at(p, p->tok_start, "expression is nested too deeply (more than %d levels)", MAX_NESTING);
        return false;
    }
    return true;
}

typedef struct function_def {
    const char *name;
    int arity;
    int op; /* enum unary_op for arity 1, enum binary_op for arity 2 */
} function_def;

static const function_def functions[] = {
    {"sin", 1, U_SIN},     {"cos", 1, U_COS},   {"tan", 1, U_TAN}, {"asin", 1, U_ASIN}, {"acos", 1, U_ACOS},
    {"atan", 1, U_ATAN},   {"sqrt", 1, U_SQRT}, {"abs", 1, U_ABS}, {"exp", 1, U_EXP},   {"log", 1, U_LOG},
    {"floor", 1, U_FLOOR}, {"ceil", 1, U_CEIL}, {"min", 2, B_MIN}, {"max", 2, B_MAX},   {"atan2", 2, B_ATAN2},
    {"hypot", 2, B_HYPOT}, {"pow", 2, B_POW},
};

static const function_def *find_function(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (strlen(functions[i].name) == len && memcmp(functions[i].name, name, len) == 0)
            return &functions[i];
    return NULL;
}

/* A variable name "x<index>" with a canonical index (no leading zeros): the index, else -1. */
static long variable_index(const char *name, size_t len)
{
    if (len < 2 || name[0] != 'x' || len > 12)
        return -1;
    if (name[1] == '0' && len > 2)
        return -1;
    long index = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)name[i]))
            return -1;
        index = index * 10 + (name[i] - '0');
    }
    return index;
}

static value_type parse_call(parser *p, const function_def *fn, size_t name_start)
{
    const size_t open = p->tok_start;
    if (!next(p)) /* past '(' */
        return TYPE_ERROR;
    int n_args = 0;
    for (;;) {
        const size_t arg_start = p->tok_start;
        if (p->tok == T_RPAREN && n_args == 0)
            break;
        const value_type t = parse_or(p);
        if (t == TYPE_ERROR)
            return TYPE_ERROR;
        n_args++;
        if (t != TYPE_NUMBER) {
            fail_at(p, arg_start, "'%s' needs numbers, but argument %d is a condition", fn->name, n_args);
            return TYPE_ERROR;
        }
        if (p->tok != T_COMMA)
            break;
        if (!next(p))
            return TYPE_ERROR;
    }
    if (p->tok != T_RPAREN) {
        char what[64];
        describe_token(p, what, sizeof what);
        fail_at(p, p->tok_start, "expected ',' or ')' to close '(' at column %d, found %s", column_of(open),
                what);
        return TYPE_ERROR;
    }
    if (n_args != fn->arity) {
        fail_at(p, name_start, "'%s' takes %d argument%s, got %d", fn->name, fn->arity,
                fn->arity == 1 ? "" : "s", n_args);
        return TYPE_ERROR;
    }
    if (!next(p)) /* past ')' */
        return TYPE_ERROR;
    return TYPE_NUMBER;
}

static value_type parse_unary(parser *p);

static value_type parse_primary(parser *p)
{
    const size_t start = p->tok_start;
    switch (p->tok) {
    case T_NUMBER:
        if (!emit(p, OP_CONST, 0, p->number) || !next(p))
            return TYPE_ERROR;
        return TYPE_NUMBER;
    case T_LPAREN: {
        if (!enter(p) || !next(p))
            return TYPE_ERROR;
        const value_type t = parse_or(p);
        if (t == TYPE_ERROR)
            return TYPE_ERROR;
        if (p->tok != T_RPAREN) {
            char what[64];
            describe_token(p, what, sizeof what);
            fail_at(p, p->tok_start, "expected ')' to close '(' at column %d, found %s", column_of(start),
                    what);
            return TYPE_ERROR;
        }
        p->nesting--;
        if (!next(p))
            return TYPE_ERROR;
        return t;
    }
    case T_IDENT: {
        const char *name = p->text + start;
        const size_t len = p->tok_len;
        const int shown = len > 40 ? 40 : (int)len;
        if (!next(p))
            return TYPE_ERROR;
        const function_def *fn = find_function(name, len);
        if (p->tok == T_LPAREN) {
            if (!fn) {
                fail_at(p, start, "unknown function '%.*s'", shown, name);
                return TYPE_ERROR;
            }
            if (!enter(p))
                return TYPE_ERROR;
            const value_type t = parse_call(p, fn, start);
            p->nesting--;
            if (t == TYPE_ERROR)
                return TYPE_ERROR;
            return fn->arity == 1 ? (emit_unary(p, fn->op) ? TYPE_NUMBER : TYPE_ERROR)
                                  : TYPE_NUMBER; /* binary: emitted by the caller below */
        }
        if (fn) {
            fail_at(p, start, "'%s' is a function; call it as %s(...)", fn->name, fn->name);
            return TYPE_ERROR;
        }
        if (len == 2 && memcmp(name, "pi", 2) == 0)
            return emit(p, OP_CONST, 0, 3.14159265358979323846) ? TYPE_NUMBER : TYPE_ERROR;
        if (len == 1 && name[0] == 'e')
            return emit(p, OP_CONST, 0, 2.71828182845904523536) ? TYPE_NUMBER : TYPE_ERROR;
        if (len == 4 && memcmp(name, "true", 4) == 0)
            return emit(p, OP_CONST, 0, 1.0) ? TYPE_CONDITION : TYPE_ERROR;
        if (len == 5 && memcmp(name, "false", 5) == 0)
            return emit(p, OP_CONST, 0, 0.0) ? TYPE_CONDITION : TYPE_ERROR;
        const long index = variable_index(name, len);
        if (index < 0 && !(len >= 2 && name[0] == 'x' && isdigit((unsigned char)name[1]))) {
            fail_at(p, start, "unknown variable '%.*s'", shown, name);
            return TYPE_ERROR;
        }
        if (index < 0 || index >= p->n_vars) {
            if (p->n_vars == 0)
                fail_at(p, start, "unknown variable '%.*s' (there are no coordinates)", shown, name);
            else if (p->n_vars == 1)
                fail_at(p, start, "unknown variable '%.*s' (the only coordinate is x0)", shown, name);
            else
                fail_at(p, start, "unknown variable '%.*s' (the coordinates are x0 to x%d)", shown, name,
                        p->n_vars - 1);
            return TYPE_ERROR;
        }
        return emit(p, OP_VAR, (int32_t)index, 0.0) ? TYPE_NUMBER : TYPE_ERROR;
    }
    default: {
        char what[64];
        describe_token(p, what, sizeof what);
        fail_at(p, start, "expected a number, a variable, a function or '(', found %s", what);
        return TYPE_ERROR;
    }
    }
}

/* A call of a two-argument function leaves both arguments on the stack; emit its operator.
 * Separated from parse_primary so that the operands' code positions are known. */
static value_type parse_primary_full(parser *p)
{
    const size_t code_start = p->n;
    const bool is_call = p->tok == T_IDENT;
    const function_def *fn = is_call ? find_function(p->text + p->tok_start, p->tok_len) : NULL;
    const value_type t = parse_primary(p);
    if (t == TYPE_ERROR || !fn || fn->arity != 2)
        return t;
    /* Find where the second argument's code starts: with no jumps in number code the stack
     * depth after each instruction tells where the first argument ended. */
    int depth = 0;
    size_t rhs_start = code_start;
    for (size_t i = code_start; i < p->n; i++) {
        const int op = p->code[i].op;
        if (op == OP_CONST || op == OP_VAR)
            depth++;
        else if (op >= OP_BINARY_FIRST && (op - OP_BINARY_FIRST) % FORM_COUNT == FORM_STACK)
            depth--;
        if (depth == 1) {
            rhs_start = i + 1;
        }
    }
    /* depth 1 is last reached at the end of the first argument */
    return emit_binary(p, fn->op, code_start, rhs_start) ? TYPE_NUMBER : TYPE_ERROR;
}

static value_type parse_power(parser *p)
{
    const size_t lhs_start = p->n;
    const value_type t = parse_primary_full(p);
    if (t == TYPE_ERROR || p->tok != T_POW)
        return t;
    const size_t op_at = p->tok_start;
    if (!next(p))
        return TYPE_ERROR;
    const size_t rhs_start = p->n;
    if (!enter(p))
        return TYPE_ERROR;
    const value_type r = parse_unary(p); /* right-associative, and 2^-1 is allowed */
    p->nesting--;
    if (r == TYPE_ERROR)
        return TYPE_ERROR;
    if (t != TYPE_NUMBER || r != TYPE_NUMBER) {
        fail_at(p, op_at, "'^' needs numbers, but its %s operand is a condition",
                t != TYPE_NUMBER ? "left" : "right");
        return TYPE_ERROR;
    }
    return emit_binary(p, B_POW, lhs_start, rhs_start) ? TYPE_NUMBER : TYPE_ERROR;
}

static value_type parse_unary(parser *p)
{
    if (p->tok != T_MINUS && p->tok != T_PLUS)
        return parse_power(p);
    const bool negate = p->tok == T_MINUS;
    const size_t op_at = p->tok_start;
    if (!enter(p) || !next(p))
        return TYPE_ERROR;
    const value_type t = parse_unary(p);
    p->nesting--;
    if (t == TYPE_ERROR)
        return TYPE_ERROR;
    if (t != TYPE_NUMBER) {
        fail_at(p, op_at, "'%c' needs a number, but its operand is a condition", negate ? '-' : '+');
        return TYPE_ERROR;
    }
    return !negate || emit_unary(p, U_NEG) ? TYPE_NUMBER : TYPE_ERROR;
}

static value_type parse_product(parser *p)
{
    const size_t lhs_start = p->n;
    value_type t = parse_unary(p);
    while (t != TYPE_ERROR && (p->tok == T_STAR || p->tok == T_SLASH)) {
        const int b = p->tok == T_STAR ? B_MUL : B_DIV;
        const char sym = p->tok == T_STAR ? '*' : '/';
        const size_t op_at = p->tok_start;
        if (!next(p))
            return TYPE_ERROR;
        const size_t rhs_start = p->n;
        const value_type r = parse_unary(p);
        if (r == TYPE_ERROR)
            return TYPE_ERROR;
        if (t != TYPE_NUMBER || r != TYPE_NUMBER) {
            fail_at(p, op_at, "'%c' needs numbers, but its %s operand is a condition", sym,
                    t != TYPE_NUMBER ? "left" : "right");
            return TYPE_ERROR;
        }
        if (!emit_binary(p, b, lhs_start, rhs_start))
            return TYPE_ERROR;
    }
    return t;
}

static value_type parse_sum(parser *p)
{
    const size_t lhs_start = p->n;
    value_type t = parse_product(p);
    while (t != TYPE_ERROR && (p->tok == T_PLUS || p->tok == T_MINUS)) {
        const int b = p->tok == T_PLUS ? B_ADD : B_SUB;
        const char sym = p->tok == T_PLUS ? '+' : '-';
        const size_t op_at = p->tok_start;
        if (!next(p))
            return TYPE_ERROR;
        const size_t rhs_start = p->n;
        const value_type r = parse_product(p);
        if (r == TYPE_ERROR)
            return TYPE_ERROR;
        if (t != TYPE_NUMBER || r != TYPE_NUMBER) {
            fail_at(p, op_at, "'%c' needs numbers, but its %s operand is a condition", sym,
                    t != TYPE_NUMBER ? "left" : "right");
            return TYPE_ERROR;
        }
        if (!emit_binary(p, b, lhs_start, rhs_start))
            return TYPE_ERROR;
    }
    return t;
}

static int comparison_of(token_kind tok)
{
    switch (tok) {
    case T_LT:
        return B_LT;
    case T_LE:
        return B_LE;
    case T_GT:
        return B_GT;
    case T_GE:
        return B_GE;
    case T_EQ:
        return B_EQ;
    case T_NE:
        return B_NE;
    default:
        return -1;
    }
}

static value_type parse_compare(parser *p)
{
    const size_t lhs_start = p->n;
    const value_type t = parse_sum(p);
    const int b = comparison_of(p->tok);
    if (t == TYPE_ERROR || b < 0)
        return t;
    const size_t op_at = p->tok_start;
    const int op_len = (int)p->tok_len;
    if (!next(p))
        return TYPE_ERROR;
    const size_t rhs_start = p->n;
    const value_type r = parse_sum(p);
    if (r == TYPE_ERROR)
        return TYPE_ERROR;
    if (t != TYPE_NUMBER || r != TYPE_NUMBER) {
        fail_at(p, op_at, "'%.*s' compares numbers, but its %s operand is a condition", op_len,
                p->text + op_at, t != TYPE_NUMBER ? "left" : "right");
        return TYPE_ERROR;
    }
    if (comparison_of(p->tok) >= 0) {
        fail_at(p, p->tok_start, "comparisons cannot be chained; join them with 'and' (a < b and b < c)");
        return TYPE_ERROR;
    }
    return emit_binary(p, b, lhs_start, rhs_start) ? TYPE_CONDITION : TYPE_ERROR;
}

static value_type parse_not(parser *p)
{
    if (p->tok != T_NOT)
        return parse_compare(p);
    const size_t op_at = p->tok_start;
    if (!enter(p) || !next(p))
        return TYPE_ERROR;
    const value_type t = parse_not(p);
    p->nesting--;
    if (t == TYPE_ERROR)
        return TYPE_ERROR;
    if (t != TYPE_CONDITION) {
        fail_at(p, op_at, "'not' needs a condition, but its operand is a number (compare it: x0 > 0)");
        return TYPE_ERROR;
    }
    return emit_unary(p, U_NOT) ? TYPE_CONDITION : TYPE_ERROR;
}

/* `and` and `or` chains: every jump of a chain goes to its end (once one operand of an
 * `and` is false, the whole chain is). Pending jumps are linked through their arg fields. */
static value_type parse_logic(parser *p, token_kind tok)
{
    const char *name = tok == T_AND ? "and" : "or";
    value_type t = tok == T_AND ? parse_not(p) : parse_logic(p, T_AND);
    int32_t pending = -1;
    while (t != TYPE_ERROR && p->tok == tok) {
        const size_t op_at = p->tok_start;
        if (t != TYPE_CONDITION) {
            fail_at(p, op_at, "'%s' needs conditions, but its left operand is %s (compare it: x0 > 0)", name,
                    type_name(t));
            return TYPE_ERROR;
        }
        if (!emit(p, tok == T_AND ? OP_JUMP_IF_FALSE : OP_JUMP_IF_TRUE, pending, 0.0))
            return TYPE_ERROR;
        pending = (int32_t)(p->n - 1);
        p->barrier = p->n;
        if (!next(p))
            return TYPE_ERROR;
        const value_type r = tok == T_AND ? parse_not(p) : parse_logic(p, T_AND);
        if (r == TYPE_ERROR)
            return TYPE_ERROR;
        if (r != TYPE_CONDITION) {
            fail_at(p, op_at, "'%s' needs conditions, but its right operand is %s (compare it: x0 > 0)", name,
                    type_name(r));
            return TYPE_ERROR;
        }
    }
    if (t == TYPE_ERROR)
        return TYPE_ERROR;
    while (pending >= 0) {
        const int32_t previous = p->code[pending].arg;
        p->code[pending].arg = (int32_t)p->n;
        pending = previous;
    }
    return t;
}

static value_type parse_or(parser *p)
{
    const size_t start = p->n;
    const value_type t = parse_logic(p, T_OR);
    /* the end of an and/or chain is a jump target: nothing after may fold into it */
    for (size_t i = start; i < p->n; i++)
        if (p->code[i].op == OP_JUMP_IF_FALSE || p->code[i].op == OP_JUMP_IF_TRUE) {
            p->barrier = p->n;
            break;
        }
    return t;
}

/* ---- translation to register programs (run by expr_eval.c) ------------------------ */

/* The stack program pays for every value twice: a dispatch to push it and a stack
 * move per operand, and it recomputes a subterm each time the text repeats it. So the
 * stack program is translated once, at compile time, to three-address code over numbered
 * slots:
 *
 *  - every value gets a slot, and a value that the text computes twice (the same operator on
 *    the same operand slots, or the same constant) is computed once (common subexpressions;
 *    x0 + x1 inside cos(x0 + x1) and sin(x0 + x1) is one addition);
 *  - x - k becomes x + (-k) (the same number in IEEE arithmetic: subtraction is addition of
 *    the negation, which is exact), so that (x - k)^2 and (x + k)^2 are one shape;
 *  - superinstructions for the shapes of obstacle expressions: (x + k)^2 and s + (x + k)^2
 *    (a sphere's sum of squares, one instruction per coordinate), and a comparison with a
 *    constant fused with the `and`/`or` jump that tests it;
 *  - slots are reused once their value is dead, so the frame stays small.
 *
 * Every instruction does the same floating-point operations, in the same order, on the same
 * operands as the stack program: the results are bit for bit the same (tests/test_expr.c
 * checks this on random expressions and points). Nothing is re-associated.
 *
 * The batch program evaluates BATCH_LANES points per instruction, each instruction a loop
 * over lanes that the compiler vectorises. Lanes cannot jump separately, so the batch program
 * has no jumps: an `and`/`or` chain evaluates all its operands and combines them where the
 * stack program's jumps meet. Conditions are exactly 0.0 or 1.0, and the value a chain takes
 * is that of the first operand that decides it, else its last operand; folded from the last
 * jump back to the first (`and`: a * v, `or`: max(a, v)), that is the same number. Operands
 * that a single evaluation would skip are evaluated for nothing: they have no effect. */

/* A pseudo-instruction of the translation only: where the jumps to stack position b land. */
#define R_LABEL R_COUNT

/* A computed value, for finding it again: the instruction that computes it (dst unset). */
typedef struct cse_entry {
    reg_insn key;
    int32_t slot;
    int32_t next; /* the next entry in the same bucket, -1 at the end */
} cse_entry;

/* An `and`/`or` jump of the batch program, waiting for its target. */
typedef struct jump_record {
    int32_t slot;
    bool is_and;
    int32_t next; /* the jump before it to the same target, -1 at the first */
} jump_record;

typedef struct translator {
    const pb_expr *expr;
    bool branches;  /* the single program (jumps) or the batch program (none) */
    bool cse;       /* reuse values computed before */
    reg_insn *code; /* with virtual slots: one per value */
    int32_t n;
    int32_t n_slots; /* virtual slots used, the variables included */
    cse_entry *entries;
    int32_t n_entries;
    int32_t *buckets;
    uint32_t bucket_mask;
    int32_t *merge_slot;    /* per stack position: the slot its jumps write, -1 when none */
    int32_t *merge_entries; /* per stack position: entries known at its first jump */
    int32_t *records_head;  /* per stack position: its last jump (batch), -1 when none */
    jump_record *records;
    int32_t n_records;
} translator;

static uint32_t hash_key(const reg_insn *key)
{
    uint64_t kbits;
    memcpy(&kbits, &key->k, sizeof kbits);
    uint64_t h = (uint64_t)(uint32_t)key->op * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(uint32_t)key->a * 0xC2B2AE3D27D4EB4Fu;
    h ^= (uint64_t)(uint32_t)key->b * 0x165667B19E3779F9u;
    h ^= kbits * 0x27D4EB2F165667C5u;
    return (uint32_t)(h ^ (h >> 29));
}

static bool same_key(const reg_insn *x, const reg_insn *y)
{
    return x->op == y->op && x->a == y->a && x->b == y->b && memcmp(&x->k, &y->k, sizeof x->k) == 0;
}

/* Operators whose operands may be swapped without changing a bit of the result. (fmin and
 * fmax may return either zero of +0 and -0, hypot is not promised to be symmetric.) */
static bool commutes(int b)
{
    return b == B_ADD || b == B_MUL || b == B_EQ || b == B_NE;
}

/* The slot of the value `op` computes from a, b and k: a slot computed before, or a new one. */
static int32_t value(translator *t, int32_t op, int32_t a, int32_t b, double k)
{
    if (op >= R_BINARY_FIRST && op < R_COMPARE_JUMP_FIRST && (op - R_BINARY_FIRST) % 2 == RFORM_SLOT &&
        commutes((op - R_BINARY_FIRST) / 2) && a > b) {
        const int32_t swap = a;
        a = b;
        b = swap;
    }
    const reg_insn key = {.op = op, .dst = 0, .a = a, .b = b, .k = k};
    const uint32_t h = hash_key(&key) & t->bucket_mask;
    if (t->cse)
        for (int32_t e = t->buckets[h]; e >= 0; e = t->entries[e].next)
            if (same_key(&t->entries[e].key, &key))
                return t->entries[e].slot;
    const int32_t slot = t->n_slots++;
    t->code[t->n] = key;
    t->code[t->n++].dst = slot;
    if (t->cse) {
        t->entries[t->n_entries] = (cse_entry){.key = key, .slot = slot, .next = t->buckets[h]};
        t->buckets[h] = t->n_entries++;
    }
    return slot;
}

/* Forget the values computed after the first `n` entries: they were computed past a jump,
 * and code after the jump's target runs whether or not they were. The newest entries head
 * their buckets, so they come off in reverse order. */
static void forget_since(translator *t, int32_t n)
{
    while (t->n_entries > n) {
        const cse_entry *e = &t->entries[--t->n_entries];
        t->buckets[hash_key(&e->key) & t->bucket_mask] = e->next;
    }
}

/* Where jumps to stack position `at` land, the value on top of the stack is the jumps' or
 * the fall-through's: bring them together in one slot. */
static void merge(translator *t, size_t at, int32_t *top)
{
    if (t->branches) {
        const int32_t slot = t->merge_slot[at];
        if (slot < 0)
            return;
        t->code[t->n++] = (reg_insn){.op = R_MOVE, .dst = slot, .a = *top};
        t->code[t->n++] = (reg_insn){.op = R_LABEL, .b = (int32_t)at};
        *top = slot;
        forget_since(t, t->merge_entries[at]);
        return;
    }
    int32_t v = *top;
    for (int32_t r = t->records_head[at]; r >= 0; r = t->records[r].next)
        v = value(t, R_BINARY(t->records[r].is_and ? B_MUL : B_MAX, RFORM_SLOT), t->records[r].slot, v, 0.0);
    *top = v;
}

/* The stack program as virtual three-address code. */
static void translate(translator *t)
{
    const pb_expr *expr = t->expr;
    int32_t stack[EVAL_STACK + 1];
    int depth = 0;
    t->n_slots = expr->n_vars;
    for (size_t i = 0; i < expr->n; i++) {
        if (depth > 0)
            merge(t, i, &stack[depth - 1]);
        const insn *p = &expr->code[i];
        const int op = p->op;
        if (op == OP_END) {
            t->code[t->n++] = (reg_insn){.op = R_END, .a = stack[depth - 1]};
        } else if (op == OP_CONST) {
            stack[depth++] = value(t, R_CONST, 0, 0, p->k);
        } else if (op == OP_VAR) {
            stack[depth++] = p->arg;
        } else if (op == OP_JUMP_IF_FALSE || op == OP_JUMP_IF_TRUE) {
            const int32_t target = p->arg, tested = stack[--depth];
            if (t->branches) {
                if (t->merge_slot[target] < 0) {
                    t->merge_slot[target] = t->n_slots++;
                    t->merge_entries[target] = t->n_entries;
                }
                t->code[t->n++] = (reg_insn){.op = op == OP_JUMP_IF_FALSE ? R_JUMP_IF_FALSE : R_JUMP_IF_TRUE,
                                             .dst = t->merge_slot[target],
                                             .a = tested,
                                             .b = target};
            } else {
                t->records[t->n_records] = (jump_record){
                    .slot = tested, .is_and = op == OP_JUMP_IF_FALSE, .next = t->records_head[target]};
                t->records_head[target] = t->n_records++;
            }
        } else if (op < OP_BINARY_FIRST) {
            stack[depth - 1] = value(t, R_UNARY_FIRST + (op - OP_UNARY_FIRST), stack[depth - 1], 0, 0.0);
        } else {
            int b = (op - OP_BINARY_FIRST) / FORM_COUNT;
            const int form = (op - OP_BINARY_FIRST) % FORM_COUNT;
            const int32_t left = form == FORM_STACK ? stack[depth - 2] : stack[depth - 1];
            if (form == FORM_STACK) {
                depth--;
                stack[depth - 1] = value(t, R_BINARY(b, RFORM_SLOT), left, stack[depth], 0.0);
            } else if (form == FORM_VAR) {
                stack[depth - 1] = value(t, R_BINARY(b, RFORM_SLOT), left, p->arg, 0.0);
            } else {
                double k = p->k;
                if (b == B_SUB) {
                    b = B_ADD;
                    k = -k;
                }
                stack[depth - 1] = value(t, R_BINARY(b, RFORM_CONST), left, 0, k);
            }
        }
    }
}

/* The slots an instruction reads; returns how many (0 to 2). */
static int operands(const reg_insn *in, int32_t out[2])
{
    const int op = in->op;
    if (op == R_CONST || op == R_LABEL || op == R_SUM_SQUARES || op >= R_SUM_COMPARE_JUMP_FIRST)
        return 0; /* a sum's operands are its terms */
    out[0] = in->a;
    if (op == R_ADD_SHIFT_SQUARE ||
        (op >= R_BINARY_FIRST && op < R_COMPARE_JUMP_FIRST && (op - R_BINARY_FIRST) % 2 == RFORM_SLOT)) {
        out[1] = in->b;
        return 2;
    }
    return 1;
}

static bool is_jump(int op)
{
    return op == R_JUMP_IF_FALSE || op == R_JUMP_IF_TRUE || op >= R_COMPARE_JUMP_FIRST;
}

/* Does the instruction always write its dst (and do nothing else)? */
static bool is_value(int op)
{
    return op != R_END && op != R_LABEL && op != R_TERM && !is_jump(op);
}

/* Does the instruction write its dst (always or when it jumps)? */
static bool writes(int op)
{
    return op != R_END && op != R_TERM;
}

static reg_insn term_of(const reg_insn *shift_square)
{
    return (reg_insn){.op = R_TERM, .a = shift_square->a, .k = shift_square->k};
}

/* Superinstructions, from pairs of adjacent instructions whose first value is read only by
 * the second; then jump targets from stack positions to instructions. */
static void fuse(translator *t, int32_t *uses, int32_t *label_at)
{
    reg_insn *code = t->code;
    for (int32_t i = 0; i < t->n; i++) {
        int32_t read[2];
        const int n_read = operands(&code[i], read);
        for (int k = 0; k < n_read; k++)
            uses[read[k]]++;
    }
    int32_t w = 0;
    bool fusable = false;   /* is code[w - 1] a value in the same straight run as the next? */
    int32_t run_start = 0;  /* where the straight run that code[w - 1] is in starts */
    int32_t sum_start = -1; /* the last R_SUM_SQUARES */
    for (int32_t i = 0; i < t->n; i++) {
        const reg_insn in = code[i];
        reg_insn *prev = fusable ? &code[w - 1] : NULL;
        if (in.op == R_LABEL) {
            label_at[in.b] = w;
            fusable = false;
            run_start = w;
            continue;
        }
        const bool single_use = prev && uses[prev->dst] == 1;
        if (single_use && in.op == R_UNARY_FIRST + U_SQUARE && prev->op == R_BINARY(B_ADD, RFORM_CONST) &&
            prev->dst == in.a) {
            prev->op = R_SHIFT_SQUARE;
            prev->dst = in.dst;
            continue;
        }
        if (single_use && in.op >= R_UNARY_FIRST && in.op < R_SHIFT_UNARY_FIRST &&
            prev->op == R_BINARY(B_ADD, RFORM_CONST) && prev->dst == in.a) {
            prev->op = R_SHIFT_UNARY_FIRST + (in.op - R_UNARY_FIRST); /* abs(x0 + 3), sin(x1 - 1) */
            prev->dst = in.dst;
            continue;
        }
        if (single_use && in.op == R_BINARY(B_ADD, RFORM_SLOT) && prev->op == R_SHIFT_SQUARE &&
            (prev->dst == in.a) != (prev->dst == in.b)) {
            /* l + r is r + l, bit for bit */
            const int32_t other = prev->dst == in.a ? in.b : in.a;
            if (sum_start >= run_start && code[sum_start].op == R_SUM_SQUARES &&
                sum_start + 1 + code[sum_start].a == w - 1 && code[sum_start].dst == other &&
                uses[other] == 1) {
                /* one more term of the sum just before */
                code[w - 1] = term_of(prev);
                code[sum_start].a++;
                code[sum_start].dst = in.dst;
                fusable = false;
                continue;
            }
            if (w - 2 >= run_start && code[w - 2].op == R_SHIFT_SQUARE && code[w - 2].dst == other &&
                uses[other] == 1) {
                /* two squares: a sum of squares. It takes one entry more than the two did; the
                 * input had two more (each R_SHIFT_SQUARE was two instructions), so w < i. */
                const reg_insn first = code[w - 2], second = *prev;
                code[w - 2] = (reg_insn){.op = R_SUM_SQUARES, .dst = in.dst, .a = 2};
                code[w - 1] = term_of(&first);
                code[w++] = term_of(&second);
                sum_start = w - 3;
                fusable = false;
                continue;
            }
            prev->b = other;
            prev->op = R_ADD_SHIFT_SQUARE;
            prev->dst = in.dst;
            continue;
        }
        if (single_use && (in.op == R_JUMP_IF_FALSE || in.op == R_JUMP_IF_TRUE) && prev->dst == in.a &&
            prev->op >= R_BINARY(B_LT, RFORM_CONST) && prev->op <= R_BINARY(B_NE, RFORM_CONST) &&
            (prev->op - R_BINARY_FIRST) % 2 == RFORM_CONST) {
            const int cmp = (prev->op - R_BINARY_FIRST) / 2;
            if (sum_start >= run_start && code[sum_start].op == R_SUM_SQUARES &&
                sum_start + 1 + code[sum_start].a == w - 1 && code[sum_start].dst == prev->a &&
                uses[prev->a] == 1) {
                /* the sum just before is compared and nothing else: test it where it is made */
                reg_insn *sum = &code[sum_start];
                sum->op = R_SUM_COMPARE_JUMP(cmp, in.op == R_JUMP_IF_TRUE);
                sum->dst = in.dst;
                sum->b = in.b;
                sum->k = prev->k;
                w--;
                fusable = false;
                run_start = w;
                continue;
            }
            prev->op = R_COMPARE_JUMP(cmp, in.op == R_JUMP_IF_TRUE);
            prev->dst = in.dst;
            prev->b = in.b;
            fusable = false;
            run_start = w;
            continue;
        }
        if (single_use && in.op == R_MOVE && prev->dst == in.a) {
            prev->dst = in.dst; /* compute the value where it is wanted */
            continue;
        }
        code[w++] = in;
        fusable = is_value(in.op);
        if (is_jump(in.op))
            run_start = w;
    }
    t->n = w;
    for (int32_t i = 0; i < t->n; i++)
        if (is_jump(code[i].op))
            code[i].b = label_at[code[i].b];
}

/* Virtual slots to frame slots, reusing a slot once its value is dead. Jumps only go forward,
 * so a value is live from the first instruction that names it to the last. Returns the frame
 * size. */
static int32_t allocate(translator *t, int32_t *last, int32_t *frame_slot, int32_t *free_slots)
{
    const int32_t n_vars = t->expr->n_vars;
    for (int32_t s = 0; s < t->n_slots; s++) {
        last[s] = -1;
        frame_slot[s] = s < n_vars ? s : -1;
    }
    for (int32_t i = 0; i < t->n; i++) {
        int32_t read[2];
        const int n_read = operands(&t->code[i], read);
        for (int k = 0; k < n_read; k++)
            last[read[k]] = i;
        if (writes(t->code[i].op))
            last[t->code[i].dst] = i;
    }
    int32_t n_free = 0, size = n_vars;
    for (int32_t i = 0; i < t->n; i++) {
        reg_insn *in = &t->code[i];
        int32_t read[2];
        const int n_read = operands(in, read);
        /* the destination first, so that it never shares a slot with an operand: the lanes'
         * loops then read and write separate arrays */
        if (writes(in->op)) {
            if (frame_slot[in->dst] < 0)
                frame_slot[in->dst] = n_free > 0 ? free_slots[--n_free] : size++;
            in->dst = frame_slot[in->dst];
        }
        for (int k = 0; k < n_read; k++) {
            const int32_t s = read[k];
            if (s >= n_vars && last[s] == i && (k == 0 || read[1] != read[0]))
                free_slots[n_free++] = frame_slot[s];
        }
        if (n_read > 0)
            in->a = frame_slot[read[0]];
        if (n_read > 1)
            in->b = frame_slot[read[1]];
    }
    return size;
}

/* Build one program: returns false when memory ran out; `out->code` is NULL when the program
 * needs more than `max_slots` slots. */
static bool build(const pb_expr *expr, bool branches, bool cse, int32_t max_slots, reg_program *out)
{
    *out = (reg_program){0};
    const size_t n = expr->n;
    size_t n_buckets = 16;
    while (n_buckets < 2 * n)
        n_buckets *= 2;
    const size_t max_code = 3 * n + 8, max_slots_virtual = 4 * n + (size_t)expr->n_vars + 8;
    translator t = {.expr = expr, .branches = branches, .cse = cse, .bucket_mask = (uint32_t)(n_buckets - 1)};
    t.code = malloc(max_code * sizeof *t.code);
    t.entries = malloc((2 * n + 2) * sizeof *t.entries); /* a value per instruction and per jump */
    t.buckets = malloc(n_buckets * sizeof *t.buckets);
    t.merge_slot = malloc((n + 1) * sizeof(int32_t));
    t.merge_entries = malloc((n + 1) * sizeof(int32_t));
    t.records_head = malloc((n + 1) * sizeof(int32_t));
    t.records = malloc((n + 1) * sizeof *t.records);
    int32_t *scratch = malloc(3 * max_slots_virtual * sizeof(int32_t));
    bool ok = t.code && t.entries && t.buckets && t.merge_slot && t.merge_entries && t.records_head &&
              t.records && scratch;
    if (ok) {
        memset(t.buckets, 0xff, n_buckets * sizeof *t.buckets);
        memset(t.merge_slot, 0xff, (n + 1) * sizeof(int32_t));
        memset(t.records_head, 0xff, (n + 1) * sizeof(int32_t));
        translate(&t);
        int32_t *uses = scratch, *label_at = scratch + max_slots_virtual;
        memset(uses, 0, (size_t)t.n_slots * sizeof *uses);
        fuse(&t, uses, label_at);
        const int32_t size =
            allocate(&t, scratch, scratch + max_slots_virtual, scratch + 2 * max_slots_virtual);
        if (size <= max_slots) {
            reg_insn *code = realloc(t.code, (size_t)t.n * sizeof *code);
            if (code) {
                out->code = code;
                out->n = t.n;
                out->n_slots = size;
                t.code = NULL;
            } else {
                ok = false;
            }
        }
    }
    free(t.code);
    free(t.entries);
    free(t.buckets);
    free(t.merge_slot);
    free(t.merge_entries);
    free(t.records_head);
    free(t.records);
    free(scratch);
    return ok;
}

static void free_registers(pb_expr *expr)
{
    free(expr->single.code);
    free(expr->batch.code);
    expr->single = expr->batch = (reg_program){0};
}

static bool build_registers(pb_expr *expr)
{
    reg_program *programs[2] = {&expr->single, &expr->batch};
    const int32_t sizes[2] = {SINGLE_SLOTS, BATCH_SLOTS};
    for (int k = 0; k < 2; k++) {
        /* common subexpressions can keep more values alive than the frame holds: then
         * without */
        if (!build(expr, k == 0, true, sizes[k], programs[k]) ||
            (!programs[k]->code && !build(expr, k == 0, false, sizes[k], programs[k]))) {
            free_registers(expr);
            return false;
        }
    }
    return true;
}

/* ---- the public functions ------------------------------------------------------------ */

pb_status pb_expr_compile(pb_expr **out, const char *text, int n_vars, pb_expr_error *error)
{
    *out = NULL;
    if (error) {
        error->column = 0;
        error->message[0] = '\0';
    }
    parser p = {.text = text, .n_vars = n_vars, .error = error};
    if (n_vars < 0 || n_vars > PB_EXPR_MAX_VARS) {
        fail_at(&p, 0, "at most %d variables are supported", PB_EXPR_MAX_VARS);
        return PB_ERR_INVALID;
    }
    if (strlen(text) > PB_EXPR_MAX_LENGTH) {
        fail_at(&p, PB_EXPR_MAX_LENGTH, "expression is too long (more than %d characters)",
                PB_EXPR_MAX_LENGTH);
        return PB_ERR_INVALID;
    }
    value_type t = TYPE_ERROR;
    if (next(&p) && p.tok == T_END) {
        fail_at(&p, p.tok_start, "empty expression");
    } else if (!p.failed) {
        t = parse_or(&p);
        if (t != TYPE_ERROR && p.tok != T_END) {
            char what[64];
            describe_token(&p, what, sizeof what);
            if (p.tok == T_RPAREN)
                fail_at(&p, p.tok_start, "unmatched ')'");
            else
                fail_at(&p, p.tok_start, "expected an operator, found %s", what);
            t = TYPE_ERROR;
        }
    }
    if (t != TYPE_ERROR)
        emit(&p, OP_END, 0, 0.0);
    if (p.failed) {
        free(p.code);
        return p.nomem ? PB_ERR_NOMEM : PB_ERR_INVALID;
    }
    /* The stack depth, simulated along the straight line of the code (jumps go forward and
     * leave the depth as the fall-through path does), must fit the interpreter's stack. */
    int depth = 0, max_depth = 0;
    for (size_t i = 0; i < p.n; i++) {
        const int op = p.code[i].op;
        if (op == OP_CONST || op == OP_VAR)
            depth++;
        else if (op == OP_JUMP_IF_FALSE || op == OP_JUMP_IF_TRUE)
            depth--;
        else if (op >= OP_BINARY_FIRST && (op - OP_BINARY_FIRST) % FORM_COUNT == FORM_STACK)
            depth--;
        if (depth > max_depth)
            max_depth = depth;
    }
    if (max_depth > EVAL_STACK || depth != 1) {
        free(p.code);
        fail_at(&p, 0, "expression is too complex");
        return PB_ERR_INVALID;
    }
    pb_expr *expr = malloc(sizeof *expr);
    if (!expr) {
        free(p.code);
        if (error) {
            error->column = 0;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
        return PB_ERR_NOMEM;
    }
    *expr = (pb_expr){.code = p.code, .n = p.n, .condition = t == TYPE_CONDITION, .n_vars = n_vars};
    if (!build_registers(expr)) {
        pb_expr_destroy(expr);
        if (error) {
            error->column = 0;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
        return PB_ERR_NOMEM;
    }
    *out = expr;
    return PB_OK;
}

void pb_expr_destroy(pb_expr *expr)
{
    if (!expr)
        return;
    free_registers(expr);
    free(expr->code);
    free(expr);
}

bool pb_expr_is_condition(const pb_expr *expr)
{
    return expr->condition;
}

size_t pb_expr_length(const pb_expr *expr)
{
    return expr->n;
}

size_t pb_expr_register_length(const pb_expr *expr, bool batch)
{
    return (size_t)(batch ? expr->batch.n : expr->single.n);
}

void pb_expr_error_format(const pb_expr_error *error, char *buf, size_t size)
{
    if (error->column > 0)
        snprintf(buf, size, "expression: column %d: %s", error->column, error->message);
    else
        snprintf(buf, size, "expression: %s", error->message);
}
