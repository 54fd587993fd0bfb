using System.Text.RegularExpressions;

namespace RpcCompare.Testing;

/// <summary>
/// The README and the pages under docs/, read the way a reader meets them: their relative links,
/// and the command lines they quote for a project (<c>dotnet run ... --project perf/RpcCompare.Runner -- --suite ops</c>).
/// The tests of each command check what is quoted against that command's own parser.
/// </summary>
public static partial class Documentation
{
    /// <summary>README.md and every Markdown page under docs/, as paths relative to the repository root.</summary>
    public static IReadOnlyList<string> Pages { get; } =
    [
        "README.md",
        .. Directory.EnumerateFiles(RepositoryPaths.Combine("docs"), "*.md", SearchOption.AllDirectories)
            .Select(p => Path.GetRelativePath(RepositoryPaths.Root, p))
            .Order(StringComparer.Ordinal),
    ];

    /// <summary>Every relative link of every page whose target does not exist, as "page: target".</summary>
    public static IEnumerable<string> BrokenLinks()
    {
        foreach (var page in Pages)
        {
            var directory = Path.GetDirectoryName(RepositoryPaths.Combine(page))!;
            foreach (Match link in LinkPattern().Matches(WithoutCode(File.ReadAllText(RepositoryPaths.Combine(page)))))
            {
                var target = link.Groups["target"].Value.Split('#')[0];
                if (target.Length == 0 || target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
                {
                    continue;
                }

                var path = Path.GetFullPath(Path.Combine(directory, Uri.UnescapeDataString(target)));
                if (!File.Exists(path) && !Directory.Exists(path))
                {
                    yield return $"{page}: {link.Groups["target"].Value}";
                }
            }
        }
    }

    /// <summary>
    /// The arguments of every command line the pages quote for <paramref name="project"/> (what
    /// follows its <c>--project</c> path and the <c>--</c>), each with the page it is on; with
    /// <paramref name="shellName"/> (<c>rpcc</c>), also what follows that name where a page runs it
    /// directly: a line of fenced code (<c>$ rpcc call ...</c>) or a span of inline code
    /// (<c>`rpcc health ...`</c>) that starts with the name and then one of
    /// <paramref name="shellCommands"/> (its subcommands), so prose that mentions the name is not a
    /// command. A continuation backslash joins lines; a shell comment, pipe or redirection ends the command.
    /// </summary>
    public static IEnumerable<(string Page, string[] Arguments)> QuotedCommands(string project, string? shellName = null, IReadOnlyCollection<string>? shellCommands = null)
    {
        var marker = $"--project {project}";
        foreach (var page in Pages)
        {
            var text = File.ReadAllText(RepositoryPaths.Combine(page)).Replace("\\\n", " ", StringComparison.Ordinal);
            var inFence = false;
            foreach (var line in text.Split('\n'))
            {
                if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
                {
                    inFence = !inFence;
                    continue;
                }

                for (var at = line.IndexOf(marker, StringComparison.Ordinal); at >= 0; at = line.IndexOf(marker, at + marker.Length, StringComparison.Ordinal))
                {
                    var rest = line[(at + marker.Length)..];
                    // The project path must end here (perf/RpcCompare.Runner, not perf/RpcCompare.RunnerX).
                    if (rest.Length > 0 && !char.IsWhiteSpace(rest[0]) && rest[0] != '`')
                    {
                        continue;
                    }

                    yield return (page, Arguments(rest));
                }

                if (shellName is null)
                {
                    continue;
                }

                IEnumerable<string> candidates = inFence
                    ? [line.TrimStart().TrimStart('$').TrimStart()]
                    : InlineCodePattern().Matches(line).Select(m => m.Value.Trim('`'));
                foreach (var candidate in candidates)
                {
                    var words = candidate.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                    if (words.Length > 1 && words[0] == shellName && (shellCommands is null || shellCommands.Contains(words[1])))
                    {
                        yield return (page, Arguments("-- " + candidate[(candidate.IndexOf(' ', StringComparison.Ordinal) + 1)..]));
                    }
                }
            }
        }
    }

    /// <summary>
    /// Whether an argument is a reader's placeholder (<c>N</c>, <c>FILE</c>, <c>&lt;path&gt;</c>,
    /// <c>...</c>) rather than a value: a command holding one is checked for its options' names only.
    /// </summary>
    public static bool IsPlaceholder(string argument) =>
        argument.Contains('<', StringComparison.Ordinal) || argument.Contains("...", StringComparison.Ordinal) || argument.Contains('…', StringComparison.Ordinal) ||
        PlaceholderPattern().IsMatch(argument);

    private static string[] Arguments(string rest)
    {
        // Up to the closing backtick of inline code, and past the "--" that separates dotnet run's own options.
        var end = rest.IndexOf('`', StringComparison.Ordinal);
        rest = end >= 0 ? rest[..end] : rest;
        var tokens = rest.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList();
        var separator = tokens.IndexOf("--");
        if (separator < 0)
        {
            return [];
        }

        var arguments = new List<string>();
        foreach (var token in tokens.Skip(separator + 1))
        {
            if (token.StartsWith('#') || token is "|" or "&&" or ";" or ">" or "2>&1" || token.StartsWith('>'))
            {
                break;
            }

            arguments.Add(token.Trim('"', '\'').TrimEnd(')', ',', ';'));
        }

        return [.. arguments];
    }

    // Fenced and inline code hold paths and commands, not links.
    private static string WithoutCode(string markdown) => InlineCodePattern().Replace(FencePattern().Replace(markdown, ""), "");

    [GeneratedRegex(@"\[[^\]]*\]\((?<target>[^)\s]+)(\s+""[^""]*"")?\)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex(@"```.*?```", RegexOptions.Singleline)]
    private static partial Regex FencePattern();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex InlineCodePattern();

    // An all-capital word (N, FILE, DIR), or one naming a team's own file (Team.Services.dll).
    [GeneratedRegex(@"^([A-Z][A-Z0-9_]*|Team\..*)$")]
    private static partial Regex PlaceholderPattern();
}
