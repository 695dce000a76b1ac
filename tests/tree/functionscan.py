"""The function bodies of a C++ source, found by matching braces on text without comments and literals: each
function defined at namespace or class scope with its name (qualified by the classes around it, not by
namespaces) and its first and last line. A lambda or a local class is part of the function that holds it."""

import re

import sourcetree

IDENT = r'[A-Za-z_]\w*'
NAMESPACE = re.compile(r'\bnamespace\b[\w:\s]*$')
EXTERN = re.compile(r'\bextern\s*$')  # extern "C" { (the literal is blanked)
CLASS = re.compile(r'\b(class|struct|union)\b[^()]*$')
ENUM = re.compile(r'\benum\b[^()]*$')
ACCESS = re.compile(r'\b(public|protected|private|Q_SIGNALS|Q_SLOTS|signals|slots)\s*:(?!:)')
# What may follow a function's parameter list before its body.
QUALIFIERS = (r'(?:\s*(?:const|volatile|noexcept(?:\s*\([^()]*\))?|override|final|mutable|&&?|->[^{;:]*|'
              r'requires[^{;]*|try))*')
TRAILING = re.compile(QUALIFIERS + r'\s*$')
# ") :" (not "::"): a constructor's initializer list starts.
INIT_LIST = re.compile(r'\)' + QUALIFIERS + r'\s*:(?!:)')
NAME = re.compile(r'(~?' + IDENT + r'(?:\s*<[^<>(){};]*>)?(?:\s*::\s*~?' + IDENT + r'(?:\s*<[^<>(){};]*>)?)*'
                  r'(?:\s*::\s*operator\s*(?:\(\)|[^\w\s(]+)|\s*operator\s*(?:\(\)|[^\w\s(]+))?)\s*$')


def _matching(code, i, open_c, close_c):
    """The index of the bracket that closes the one at i (len(code) when it is never closed)."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == open_c:
            depth += 1
        elif code[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return len(code)


def _opening_paren(text, close):
    """The index of the '(' that the ')' at `close` closes, or -1."""
    depth = 0
    for j in range(close, -1, -1):
        if text[j] == ')':
            depth += 1
        elif text[j] == '(':
            depth -= 1
            if depth == 0:
                return j
    return -1


def _declarator(head):
    """(name, offset of the name in head) of a function head, or None when head does not end a function's
    declarator. head runs from the end of the last statement or scope to the body's '{'."""
    init = INIT_LIST.search(head)
    decl = head[:init.start() + 1] if init else head
    m = re.search(r'\)' + TRAILING.pattern, decl)
    if not m:
        return None
    open_at = _opening_paren(decl, m.start())
    if open_at < 0:
        return None
    before = decl[:open_at]
    named = NAME.search(before)
    if named:
        return re.sub(r'\s+', '', named.group(1)), named.start(1)
    lam = re.search(r'(' + IDENT + r')\s*=\s*\[[^\]]*\]\s*$', before)
    if lam:  # a lambda bound to a name at namespace scope
        return lam.group(1), lam.start(1)
    return None


def functions(text):
    """[(name, first line, last line)] of every function body in text."""
    code = sourcetree.strip_comments_and_literals(text)
    code = re.sub(r'^[ \t]*#.*$', '', code, flags=re.M)  # preprocessor lines open no scope
    found = []
    scopes = []  # (kind, name, index of its closing brace): kind is 'ns' or 'class'
    last = 0  # where the text that may head the next scope starts
    i, n = 0, len(code)
    while i < n:
        while scopes and i > scopes[-1][2]:
            scopes.pop()
        c = code[i]
        if c in ';}':
            last = i + 1
            i += 1
            continue
        if c != '{':
            i += 1
            continue
        head = ACCESS.sub(' ', code[last:i])
        end = _matching(code, i, '{', '}')
        if NAMESPACE.search(head) or EXTERN.search(head):
            scopes.append(('ns', '', end))
            last = i + 1
            i += 1
            continue
        if ENUM.search(head):
            i, last = end + 1, end + 1
            continue
        cls = CLASS.search(head)
        if cls:
            named = re.search(r'\b(?:class|struct|union)\s+(?:\w+\s+)*?(' + IDENT + r')\s*(?:final\s*)?(?::(?!:)|$)',
                              head[cls.start():])
            scopes.append(('class', named.group(1) if named else '', end))
            last = i + 1
            i += 1
            continue
        if INIT_LIST.search(head) and re.search(r'[\w>]\s*$', head):
            # A member's brace initializer inside a constructor's initializer list: the body comes after it.
            i = end + 1
            continue
        decl = _declarator(head)
        if decl and not re.search(r'=\s*$', head):
            name, offset = decl
            owner = [s[1] for s in scopes if s[0] == 'class' and s[1]]
            qualified = '::'.join(owner + [name])
            first = code.count('\n', 0, last + offset) + 1
            found.append((qualified, first, code.count('\n', 0, end) + 1))
        i, last = end + 1, end + 1
    return found
