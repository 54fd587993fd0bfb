using System.ServiceModel;
using RpcCompare.Workloads;

namespace RpcCompare.Samples.Services.Orders;

/// <summary>
/// What the runner measures on the order service: a small and a large order placed, and one
/// refused with the declared fault (what a typed fault costs on each binding). GetOrder has no
/// call here, so the run lists it on the console as not measured.
/// </summary>
public sealed class OrderWorkload : IRpcWorkload<IOrderService>
{
    private static readonly Order s_oneLine = Lines(1);
    private static readonly Order s_hundredLines = Lines(100);
    private static readonly Order s_empty = new() { Customer = "Contoso" };

    public void Describe(RpcWorkloadCalls<IOrderService> calls) => calls
        .Add("PlaceOrder 1 line", s => s.PlaceOrderAsync(s_oneLine))
        .Add("PlaceOrder 100 lines", s => s.PlaceOrderAsync(s_hundredLines))
        .Add("PlaceOrder refused (OrderFault)", async s =>
        {
            try
            {
                await s.PlaceOrderAsync(s_empty);
                throw new InvalidOperationException("An order without lines was accepted.");
            }
            catch (FaultException<OrderFault>)
            {
                // The declared fault is this call's answer.
            }
        });

    private static Order Lines(int count) => new()
    {
        Customer = "Contoso",
        Lines = [.. Enumerable.Range(1, count).Select(i => new OrderLine { Sku = $"SKU-{i:D5}", Quantity = i % 5 + 1, UnitPrice = 9.99m })],
    };
}
