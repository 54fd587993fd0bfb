using RpcCompare.Workloads;

namespace RpcCompare.Samples.Services.Calculator;

/// <summary>What the runner measures on the calculator: the smallest call, and one with an array and an out parameter.</summary>
public sealed class CalculatorWorkload : IRpcWorkload<ICalculator>
{
    private static readonly double[] s_thousandValues = [.. Enumerable.Range(1, 1000).Select(i => i * 0.5)];

    public void Describe(RpcWorkloadCalls<ICalculator> calls) => calls
        .Add("Add", c => c.Add(1, 2))
        .Add("Divide", c => c.Divide(22, 7))
        .Add("Sum 1000 values", c => c.Sum(s_thousandValues, out _));
}
