using System.ServiceModel;

namespace RpcCompare.Samples.Services.Calculator;

public sealed class Calculator : ICalculator
{
    public double Add(double n1, double n2) => n1 + n2;

    public double Subtract(double n1, double n2) => n1 - n2;

    public double Multiply(double n1, double n2) => n1 * n2;

    public double Divide(double n1, double n2) => n2 == 0
        ? throw new FaultException<MathFault>(new MathFault { Operation = "Divide", Problem = "division by zero" }, "division by zero")
        : n1 / n2;

    public double Sum(double[] values, out int count)
    {
        count = values.Length;
        return values.Sum();
    }
}
