#!/usr/bin/python3
"""`make shape`: the code's shape in numbers. The longest Swift functions (from `func`/`init`
to their closing brace), the longest source files, how many files under Sources/ and Public/
name each layout parameter, and Public/main.js's length. Stdlib only; reads the tree it is
run in (or --root)."""
import argparse
import re
from pathlib import Path

# ("model" is left out: the word names more than the parameter)
PARAMETERS = ["stiffness", "charge", "cellSize", "threshold", "tickRate", "theta", "collide", "paused", "edgeLength"]
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|"
                         r"mutating|override|final|nonisolated|convenience|required|@discardableResult)\s+)*"
                         r"(func\s+[^\s(<]+|init[?!]?)\s*[(<]")


def functions(path):
    """(name, first line, length in lines) of every function or init with a body in `path`."""
    lines = path.read_text(errors="replace").splitlines()
    found = []
    for index, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        depth, opened, end = 0, False, None
        for number in range(index, len(lines)):
            text = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[number].split("//")[0])
            for char in text:
                if char == "{":
                    depth, opened = depth + 1, True
                elif char == "}":
                    depth -= 1
            if opened and depth <= 0:
                end = number
                break
            if not opened and number > index and (text.strip().endswith(")") is False and "{" not in text
                                                 and DECLARATION.match(lines[number])):
                break
        if end is not None:
            found.append((match.group(1).replace("func ", ""), index + 1, end - index + 1))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    root = args.root
    swift = sorted((root / "Sources").rglob("*.swift"))
    every = [(length, f"{path.relative_to(root)}:{line} {name}") for path in swift for name, line, length in functions(path)]
    every.sort(reverse=True)
    print(f"longest Swift functions (of {len(every)}):")
    for length, where in every[:args.top]:
        print(f"  {length:4} {where}")
    print(f"  functions over 40 lines: {sum(1 for length, _ in every if length > 40)}")
    sources = [p for p in swift] + sorted((root / "Public").glob("*.js"))
    sized = sorted(((len(p.read_text(errors='replace').splitlines()), p.relative_to(root)) for p in sources), reverse=True)
    print("longest source files:")
    for length, path in sized[:args.top]:
        print(f"  {length:4} {path}")
    print(f"  files over 300 lines: {sum(1 for length, _ in sized if length > 300)}")
    texts = {p: p.read_text(errors="replace") for p in sources + sorted((root / "Public").glob("*.html"))}
    print("files naming each parameter (Sources/, Public/):")
    for name in PARAMETERS:
        count = sum(1 for text in texts.values() if re.search(rf"\b{name}\b", text))
        print(f"  {name:10} {count}")
    main_js = root / "Public" / "main.js"
    if main_js.exists():
        print(f"Public/main.js: {len(main_js.read_text().splitlines())} lines")


if __name__ == "__main__":
    main()
