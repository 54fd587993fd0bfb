using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

// Implementations as a WCF team writes them, for the tests that host the corpus.

public sealed class Calculator : ICalculator
{
    public double Add(double n1, double n2) => n1 + n2;

    public double Subtract(double n1, double n2) => n1 - n2;

    public double Multiply(double n1, double n2) => n1 * n2;

    public double Divide(double n1, double n2) => n1 / n2;
}

public sealed class Service1 : IService1
{
    public string GetData(int value) => $"You entered: {value}";

    public CompositeType GetDataUsingDataContract(CompositeType composite)
    {
        ArgumentNullException.ThrowIfNull(composite);
        if (composite.BoolValue)
        {
            composite.StringValue += "Suffix";
        }

        return composite;
    }
}

/// <summary>Refuses lines with a quantity below one with the declared typed fault.</summary>
public sealed class OrderService : IOrderService
{
    private int _lastId;

    public Task<int> PlaceOrderAsync(Order order)
    {
        ArgumentNullException.ThrowIfNull(order);
        if (order.Lines.FirstOrDefault(l => l.Quantity < 1) is { } bad)
        {
            throw new FaultException<OrderFault>(new OrderFault { Reason = "quantity must be at least 1", Sku = bad.Sku }, "invalid order line");
        }

        return Task.FromResult(Interlocked.Increment(ref _lastId));
    }

    public Task CancelOrderAsync(int orderId) => Task.CompletedTask;
}
