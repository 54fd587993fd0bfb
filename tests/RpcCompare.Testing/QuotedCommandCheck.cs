using System.CommandLine;

namespace RpcCompare.Testing;

/// <summary>Checks the command lines the docs quote for one command against that command's parser.</summary>
public static class QuotedCommandCheck
{
    /// <summary>
    /// Every quoted command the parser would not take, as "page: arguments: why". A command with
    /// a placeholder (<see cref="Documentation.IsPlaceholder"/>) is checked for its options' names
    /// only; any other must parse without an error. A command with subcommands (rpcc) checks
    /// names against the subcommand the arguments select, with the root's own options.
    /// </summary>
    public static IEnumerable<string> Problems(Command command, IEnumerable<(string Page, string[] Arguments)> quoted)
    {
        foreach (var (page, arguments) in quoted)
        {
            var line = string.Join(' ', arguments);
            var parse = command.Parse(arguments);
            var names = parse.CommandResult.Command.Options.Concat(command.Options)
                .SelectMany(o => o.Aliases.Append(o.Name)).ToHashSet(StringComparer.Ordinal);
            var unknown = arguments.Where(a => a.StartsWith('-') && a.Length > 1 && !char.IsDigit(a[1]) && !names.Contains(a.Split('=')[0])).ToList();
            if (unknown.Count > 0)
            {
                yield return $"{page}: {line}: no option {string.Join(", ", unknown)}";
                continue;
            }

            if (!arguments.Any(Documentation.IsPlaceholder) && parse.Errors is [var first, ..])
            {
                yield return $"{page}: {line}: {first.Message}";
            }
        }
    }
}
