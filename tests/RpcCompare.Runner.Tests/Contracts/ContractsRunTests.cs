using System.Text.Json;
using RpcCompare.Testing;

namespace RpcCompare.Runner.Tests.Contracts;

/// <summary>
/// The runner measuring a team's assembly (--contracts, the sample): its own host, every workload
/// call over every binding that carries the contracts, pipes refused with its reason, and what no
/// call reaches named. Checks the report's cells, never a timing.
/// </summary>
public sealed class ContractsRunTests : IClassFixture<ContractsRunTests.ContractsRun>
{
    private static readonly string[] s_carrying = ["wcf-uds", "grpc-uds", "inproc"];
    private static readonly string[] s_calls =
    [
        "ICalculator.Add", "ICalculator.Divide", "ICalculator.Sum 1000 values",
        "IOrderService.PlaceOrder 1 line", "IOrderService.PlaceOrder 100 lines", "IOrderService.PlaceOrder refused (OrderFault)",
    ];

    private readonly ContractsRun _run;

    public ContractsRunTests(ContractsRun run)
    {
        _run = run;
    }

    [Fact]
    public void Run_ExitsZero_WithTheContractsSuiteAlone()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        Assert.Equal(["contracts"], _run.Root.GetProperty("settings").GetProperty("suites").EnumerateArray().Select(s => s.GetString()));
        Assert.All(_run.Measurements, m => Assert.Equal("contracts", m.GetProperty("suite").GetString()));
    }

    [Fact]
    public void EveryCall_IsMeasured_OnEveryBindingThatCarriesTheContracts()
    {
        foreach (var call in s_calls)
        {
            foreach (var binding in s_carrying)
            {
                var record = _run.Measurements.SingleOrDefault(m => m.GetProperty("operation").GetString() == call && m.GetProperty("binding").GetString() == binding);
                Assert.True(record.ValueKind == JsonValueKind.Object, $"{call} over {binding} is missing:\n{_run.Console}");
                Assert.True(record.GetProperty("calls").GetInt64() > 0);
                Assert.True(record.GetProperty("callsPerSecond").GetProperty("median").GetDouble() > 0);
            }
        }

        Assert.Equal(s_calls.Length * s_carrying.Length, _run.Measurements.Count);
    }

    [Fact]
    public void Pipes_IsRefusedForEveryCall_WithItsOwnReason()
    {
        foreach (var call in s_calls)
        {
            var refused = _run.Refused.Single(r => r.GetProperty("operation").GetString() == call);
            Assert.Equal("pipes", refused.GetProperty("binding").GetString());
            Assert.True(refused.GetProperty("notCarried").GetBoolean());
            Assert.Contains("the pipes binding is the hand-written baseline for RpcCompare's own contracts", refused.GetProperty("reason").GetString(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void AnOperationNoCallNames_IsListedAsNotMeasured()
    {
        Assert.Contains("not measured IOrderService.GetOrder: no call in OrderWorkload names it", _run.Console, StringComparison.Ordinal);
        Assert.DoesNotContain("ICalculator.Add: no call", _run.Console, StringComparison.Ordinal);
    }

    [Fact]
    public void Markdown_ShowsTheCallsAsRows()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        Assert.Contains("| IOrderService.PlaceOrder 100 lines |", markdown, StringComparison.Ordinal);
        Assert.Contains("| refused: not carried |", markdown, StringComparison.Ordinal);
        Assert.Contains("## contracts: overhead share", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("## contracts: ratio to pipes", markdown, StringComparison.Ordinal); // no pipes figure: no table of dashes
        Assert.Contains("Cells marked \"refused: not carried\": the binding cannot carry the contract", markdown, StringComparison.Ordinal);
        // Rows follow the contracts' full names (Calculator before Orders), the workloads' order within each.
        Assert.True(markdown.IndexOf("| ICalculator.Add |", StringComparison.Ordinal) < markdown.IndexOf("| IOrderService.PlaceOrder 1 line |", StringComparison.Ordinal));
    }

    public sealed class ContractsRun : RunnerRun
    {
        protected override string[] Arguments => ["--contracts", SampleServices.AssemblyPath, "--quick", "--bindings", "wcf-uds,grpc-uds,pipes,inproc"];
    }
}
