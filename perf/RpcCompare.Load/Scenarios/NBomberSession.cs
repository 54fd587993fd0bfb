using NBomber.Contracts;
using NBomber.Contracts.Stats;
using NBomber.CSharp;

namespace RpcCompare.Load.Scenarios;

/// <summary>
/// One NBomber session of one scenario: every call goes through a <see cref="ClientPool"/>, NBomber
/// measures and writes its own reports (HTML, Markdown, CSV, TXT) into the given folder.
/// </summary>
internal static class NBomberSession
{
    private static readonly ReportFormat[] s_reportFormats = [ReportFormat.Html, ReportFormat.Md, ReportFormat.Csv, ReportFormat.Txt];

    /// <param name="binding">Named as NBomber's test name, so its reports say which binding they are about.</param>
    /// <param name="name">The scenario's name and its reports' file name.</param>
    /// <param name="call">One call, throwing what the call threw; <paramref name="payloadBytes"/> are counted per successful call.</param>
    /// <param name="payloadBytes">Bytes one successful call carries, request and reply, for NBomber's data-transfer figures.</param>
    /// <param name="simulations">NBomber's load simulations, run one after the other.</param>
    /// <param name="reportFolder">NBomber empties its report folder when a session starts: one folder per session.</param>
    public static async Task<(NodeStats Stats, string? FirstError)> RunAsync(
        string binding, string name, Func<Task> call, long payloadBytes, LoadSimulation[] simulations, string reportFolder)
    {
        var (stats, errors) = await RunAsync(binding, name, [new SessionScenario(name, call, payloadBytes, simulations)], reportFolder);
        return (stats, errors.GetValueOrDefault(name));
    }

    /// <summary>Several scenarios in one session, running at the same time (or one after another, when pauses stagger them); the first error per scenario.</summary>
    /// <param name="binding">Named as NBomber's test name.</param>
    /// <param name="reportName">The reports' file name.</param>
    /// <param name="scenarios">The scenarios.</param>
    /// <param name="reportFolder">NBomber empties its report folder when a session starts: one folder per session.</param>
    public static async Task<(NodeStats Stats, IReadOnlyDictionary<string, string> FirstErrors)> RunAsync(
        string binding, string reportName, IReadOnlyList<SessionScenario> scenarios, string reportFolder)
    {
        var firstErrors = new System.Collections.Concurrent.ConcurrentDictionary<string, string>();
        var registered = scenarios.Select(spec => Scenario.Create(spec.Name, async _ =>
            {
                try
                {
                    await spec.Call();
                    return Response.Ok(sizeBytes: spec.PayloadBytes);
                }
                catch (Exception exception)
                {
                    firstErrors.TryAdd(spec.Name, $"{exception.GetType().Name}: {exception.Message}");
                    return Response.Fail(message: exception.Message);
                }
            })
            .WithLoadSimulations(spec.Simulations)
            // Callers warm up with their own calls: NBomber's warm-up cost about 5 s per session
            // on top of its duration on this machine (2 sessions of 3 s: 13.1 s without, 22.9 s with 1 s of it).
            .WithoutWarmUp()).ToArray();

        // NBomber's Run blocks its caller; run it off the caller's thread so the scenario's own awaits are not starved.
        var stats = await Task.Run(() => NBomberRunner
            .RegisterScenarios(registered)
            .WithTestSuite("rpccompare")
            .WithTestName(binding)
            .WithReportFolder(reportFolder)
            .WithReportFileName(reportName)
            .WithReportFormats(s_reportFormats)
            .Run());
        return (stats, firstErrors);
    }
}

/// <summary>One scenario of a session: its name, its call, the bytes a call carries and its load.</summary>
internal sealed record SessionScenario(string Name, Func<Task> Call, long PayloadBytes, LoadSimulation[] Simulations);
