using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using RpcCompare.Benchmarks;

// --allocation-trace: which types a pipes or fast-uds round trip allocates (see AllocationTrace).
if (args.Contains("--allocation-trace"))
{
    return await AllocationTrace.RunAsync(Console.Out);
}

// --smoke: every benchmark once, in process, as a test that they all run. BenchmarkDotNet refuses
// unoptimized assemblies, and `dotnet test` builds Debug, so the smoke turns that check off: its
// figures mean nothing and are not reported anywhere. Real runs: dotnet run -c Release -- --filter '*'.
var smoke = args.Contains("--smoke");
var config = smoke
    ? DefaultConfig.Instance.AddJob(Job.Dry.WithToolchain(InProcessEmitToolchain.Instance)).WithOptions(ConfigOptions.DisableOptimizationsValidator)
    : null;
var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run([.. args.Where(a => a != "--smoke")], config).ToList();

// BenchmarkDotNet does not fail its exit code on its own; a smoke run must, so check every report.
var reports = summaries.SelectMany(s => s.Reports).ToList();
var failed = reports.Count(r => !r.Success) + summaries.Count(s => s.HasCriticalValidationErrors);
Console.WriteLine($"benchmarks: {reports.Count} run, {reports.Count(r => r.Success)} successful, {failed} failed");
return failed == 0 && reports.Count > 0 ? 0 : 1;
