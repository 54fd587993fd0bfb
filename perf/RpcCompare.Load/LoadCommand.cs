using System.CommandLine;
using RpcCompare.Load.Scenarios;
using Spectre.Console;

namespace RpcCompare.Load;

/// <summary>The load command's command line.</summary>
internal static class LoadCommand
{
    public static RootCommand Create(IAnsiConsole console)
    {
        var bindings = new Option<string?>("--bindings", "-b") { Description = "Bindings to load, comma-separated. Default: every network binding the host serves." };
        var operations = new Option<string?>("--operations")
        {
            Description = $"Operations, comma-separated: {string.Join(", ", LoadOperation.All.Select(o => o.Name))}. Default: all.",
        };
        var models = new Option<string>("--models")
        {
            Description = "Load models, comma-separated: closed (virtual users calling in a loop), open (a fixed rate of calls per second).",
            DefaultValueFactory = _ => "closed,open",
        };
        var quick = new Option<bool>("--quick", "-q") { Description = $"Short scenarios ({LoadSettings.Quick.Duration.TotalSeconds:0.#} s, no warm-up, {LoadSettings.Quick.Users} users, {LoadSettings.Quick.Rate}/s): a smoke run." };
        var users = new Option<int?>("--users") { Description = $"Virtual users of the closed model (default {LoadSettings.Default.Users})." };
        var rate = new Option<int?>("--rate") { Description = $"Calls per second of the open model (default {LoadSettings.Default.Rate})." };
        var warmUp = new Option<double?>("--warmup-seconds") { Description = $"Unmeasured calls before each scenario (default {LoadSettings.Default.WarmUp.TotalSeconds:0.#} s)." };
        var duration = new Option<double?>("--duration-seconds") { Description = $"Measured time per scenario (default {LoadSettings.Default.Duration.TotalSeconds:0.#} s)." };
        var host = new Option<FileInfo?>("--host") { Description = "Load an already-running host (e.g. a container) through the endpoints file it wrote, instead of starting one." };
        var output = new Option<DirectoryInfo>("--output", "-o") { Description = "Reports go to OUTPUT/<UTC timestamp>/load/.", DefaultValueFactory = _ => new DirectoryInfo("results") };

        var root = new RootCommand(
            "RpcCompare load command: starts the host as a separate process and runs NBomber 4.1.2 scenarios (closed and open models) " +
            "against every binding it serves; NBomber's reports per binding and a side-by-side summary go under results/<UTC timestamp>/load/.")
        {
            bindings, operations, models, quick, users, rate, warmUp, duration, host, output,
        };
        root.SetAction(async (parse, cancellationToken) =>
        {
            LoadOptions options;
            try
            {
                var defaults = parse.GetValue(quick) ? LoadSettings.Quick : LoadSettings.Default;
                var settings = new LoadSettings(
                    parse.GetValue(users) ?? defaults.Users,
                    parse.GetValue(rate) ?? defaults.Rate,
                    parse.GetValue(warmUp) is { } w ? TimeSpan.FromSeconds(w) : defaults.WarmUp,
                    parse.GetValue(duration) is { } d ? TimeSpan.FromSeconds(d) : defaults.Duration);
                if (settings.Users < 1 || settings.Rate < 1 || settings.WarmUp < TimeSpan.Zero || settings.Duration < TimeSpan.FromSeconds(1))
                {
                    throw new ArgumentException("--users and --rate must be positive, --duration-seconds at least 1, --warmup-seconds not negative.");
                }

                options = new LoadOptions(
                    parse.GetValue(bindings) is { } b ? Split(b) : null,
                    parse.GetValue(operations) is { } o ? [.. Split(o).Select(LoadOperation.Find)] : LoadOperation.All,
                    [.. Split(parse.GetValue(models)!).Select(LoadModels.Parse).Distinct()],
                    settings,
                    parse.GetValue(quick),
                    parse.GetValue(host)?.FullName,
                    parse.GetValue(output)!.FullName);
            }
            catch (ArgumentException exception)
            {
                console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
                return 2;
            }

            var (exitCode, _) = await new LoadRun(options, console).RunAsync(cancellationToken);
            return exitCode;
        });
        return root;
    }

    private static string[] Split(string value) => value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
