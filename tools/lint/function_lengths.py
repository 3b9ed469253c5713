#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (default 60 lines), longest first.

    tools/lint/function_lengths.py [--limit N] [--include-tests] [--check] [PATH ...]

A lexical scan, not a parser: it strips comments and string literals, tracks namespace and
class braces, and measures every brace block that follows a parameter list at namespace or
class scope, from its signature's first line to its closing brace. Lambdas inside a function
count toward that function. Table-driven tests (*_test.cc) are left out unless asked for.
Exit status 0: it reports; with --check, 1 when a function is over the limit (CI's lint).
"""
import argparse
import os
import re
import sys

STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|R"(?P<d>[^(]*)\(.*?\)(?P=d)"|"(?:\\.|[^"\\\n])*"|'
                   r"'(?:\\.|[^'\\\n])*'", re.S)


def blank(match):
    return re.sub(r'[^\n]', ' ', match.group(0))


def functions(text):
    text = STRIP.sub(blank, text)
    lines = text.split('\n')
    scopes = []  # 'ns', 'class', 'fn', 'block'
    out = []
    stmt_start = 0
    pending = ''
    for no, line in enumerate(lines, 1):
        for ch in line:
            if ch == '{':
                head = pending.strip()
                in_fn = any(s[0] == 'fn' for s in scopes)
                if in_fn:
                    scopes.append(('block', no))
                elif re.search(r'\bnamespace\b[^;]*$', head) or re.match(r'^extern\s*$', head):
                    scopes.append(('ns', no))
                elif re.search(r'\b(class|struct|union|enum)\b[^()]*$', head):
                    scopes.append(('class', no))
                elif '(' in head and not re.search(r'=\s*$', head):
                    name = re.findall(r'([~\w:]+(?:<[^()]*>)?|operator\S+)\s*\(', head)
                    scopes.append(('fn', stmt_start, name[0] if name else '?'))
                else:
                    scopes.append(('block', no))
                pending = ''
                stmt_start = no
            elif ch == '}':
                if scopes:
                    top = scopes.pop()
                    if top[0] == 'fn':
                        out.append((no - top[1] + 1, top[2], top[1]))
                pending = ''
                stmt_start = no + 1
            elif ch == ';':
                pending = ''
                stmt_start = no + 1
            else:
                if not pending.strip() and not ch.isspace():
                    stmt_start = no
                pending += ch
        pending += ' '
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--limit', type=int, default=60)
    parser.add_argument('--include-tests', action='store_true')
    parser.add_argument('--check', action='store_true', help='exit 1 when a function is over')
    parser.add_argument('paths', nargs='*', default=['ref', 'fakes', 'conformance', 'tools'])
    args = parser.parse_args()
    found = []
    for root in args.paths:
        if not os.path.exists(root):
            print(f'function_lengths: no such path: {root}', file=sys.stderr)
            return 2
        walk = [(root, [], [os.path.basename(root)])] if os.path.isfile(root) else os.walk(root)
        for d, _, files in walk:
            for f in files:
                path = root if os.path.isfile(root) else os.path.join(d, f)
                if not path.endswith(('.cc', '.h')):
                    continue
                if path.endswith('_test.cc') and not args.include_tests:
                    continue
                with open(path, encoding='utf-8', errors='replace') as fh:
                    for length, name, line in functions(fh.read()):
                        if length > args.limit:
                            found.append((length, f'{path}:{line}', name))
    found.sort(reverse=True)
    for length, where, name in found:
        print(f'{length:5d}  {where}  {name}')
    print(f'{len(found)} functions over {args.limit} lines')
    return 1 if args.check and found else 0


if __name__ == '__main__':
    sys.exit(main())
